export { countBlock, countCharges, countRequest, countShed, registry, watch, type GaugeSources } from './registry.ts';
