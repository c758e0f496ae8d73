import { CronExpressionParser } from 'cron-parser';

/** When a monitor's checks are due: a cron expression in a time zone, or a fixed interval. */
export type Schedule = { cron: string; timezone: string } | { intervalSeconds: number };

/** A schedule the caller may not have: `field` names it in the request. */
export class ScheduleError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** Occurrences of a cron compared to find its shortest gap; a cron firing unevenly shows it within these. */
const GAPS_SAMPLED = 24;

function cronAfter(schedule: { cron: string; timezone: string }, after: number) {
  // cron-parser bounds each step it takes (10,000 candidate times), so an expression that never
  // fires, or rarely, costs milliseconds and throws rather than spinning.
  return CronExpressionParser.parse(schedule.cron, {
    tz: schedule.timezone,
    currentDate: new Date(after),
  });
}

/** A time zone name the runtime knows (IANA, as Intl spells them). */
function knownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The schedule of a request, checked: exactly one of `cron` and `intervalSeconds`, a cron
 * expression cron-parser reads, a known time zone, and no two checks closer than
 * `minIntervalSeconds` (for a cron, the shortest gap between its next occurrences).
 */
export function checkSchedule(
  given: { cron?: string; timezone?: string; intervalSeconds?: number },
  minIntervalSeconds: number,
  now = Date.now(),
): Schedule {
  if ((given.cron === undefined) === (given.intervalSeconds === undefined))
    throw new ScheduleError(
      'schedule',
      'give either cron (with an optional timezone) or intervalSeconds',
    );
  if (given.intervalSeconds !== undefined) {
    if (given.timezone !== undefined)
      throw new ScheduleError(
        'schedule.timezone',
        'a timezone goes with cron, not intervalSeconds',
      );
    if (given.intervalSeconds < minIntervalSeconds)
      throw new ScheduleError(
        'schedule.intervalSeconds',
        `at least ${minIntervalSeconds} seconds (WEBDATA_MONITOR_MIN_INTERVAL_SECONDS)`,
      );
    return { intervalSeconds: given.intervalSeconds };
  }
  const timezone = given.timezone ?? 'UTC';
  if (!knownTimeZone(timezone))
    throw new ScheduleError(
      'schedule.timezone',
      `unknown time zone ${JSON.stringify(timezone)}: use an IANA name such as Europe/Paris`,
    );
  const schedule = { cron: given.cron!, timezone };
  let times: number[];
  try {
    const cron = cronAfter(schedule, now);
    times = Array.from({ length: GAPS_SAMPLED }, () => cron.next().getTime());
  } catch (err) {
    throw new ScheduleError(
      'schedule.cron',
      `not a cron expression this server reads: ${(err as Error).message}`,
    );
  }
  const gap = Math.min(...times.slice(1).map((t, i) => t - times[i]!));
  if (gap < minIntervalSeconds * 1000)
    throw new ScheduleError(
      'schedule.cron',
      `fires ${gap / 1000} s apart; at least ${minIntervalSeconds} seconds between checks (WEBDATA_MONITOR_MIN_INTERVAL_SECONDS)`,
    );
  return schedule;
}

/**
 * The tick after `due` that is later than `now`. Interval ticks stay on the grid of the first one
 * (so drift does not add up), and ticks missed while no process ran (a stop, a crash) are skipped:
 * the overdue tick that is claimed stands for them all.
 */
export function nextTick(schedule: Schedule, due: number, now: number): number {
  if ('intervalSeconds' in schedule) {
    const step = schedule.intervalSeconds * 1000;
    const next = due + step;
    return next > now ? next : next + Math.ceil((now - next + 1) / step) * step;
  }
  return cronAfter(schedule, Math.max(due, now)).next().getTime();
}
