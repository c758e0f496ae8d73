export { FairLane, type FairLaneOptions, type LaneWait, type Release } from './lane.ts';
export { FairQueue } from './queue.ts';
