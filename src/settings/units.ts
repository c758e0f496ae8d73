/** The units the settings tables write their defaults and bounds in. */
export const S = 1_000;
export const MIB = 1024 * 1024;
export const DAY_S = 24 * 60 * 60;
