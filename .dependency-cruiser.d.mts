// Types of .dependency-cruiser.mjs, for scripts/architecture-graph.ts.
import type { IConfiguration } from 'dependency-cruiser';

export declare const ROWS: string[][];
export declare function roomPath(room: string): string;
declare const config: IConfiguration;
export default config;
