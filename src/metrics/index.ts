export { countBlock, countCharges, countRequest, countShed, registry, watch } from './registry.ts';
