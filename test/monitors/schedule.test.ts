import { expect, it } from 'vitest';
import { checkSchedule, ScheduleError } from '../../src/monitors/index.ts';
import { nextTick } from '../../src/monitors/schedule.ts';

const field = (given: object, min = 60) => {
  try {
    checkSchedule(given, min, Date.parse('2026-03-01T12:00:00Z'));
  } catch (err) {
    if (err instanceof ScheduleError) return err.field;
    throw err;
  }
  return undefined;
};

it('keeps interval ticks on the grid of the first and skips ticks missed while down', () => {
  const s = { intervalSeconds: 30 };
  expect(nextTick(s, 1_000, 1_050)).toBe(31_000);
  // Down from 31 s to 100 s: the overdue tick stands for the missed ones; the next is on the grid.
  expect(nextTick(s, 31_000, 100_000)).toBe(121_000);
  expect(nextTick(s, 31_000, 121_000)).toBe(151_000);
});

it('reads a cron in its time zone, daylight saving included', () => {
  const s = { cron: '0 9 * * *', timezone: 'Europe/Paris' };
  // 29 March 2026: Paris moves from UTC+1 to UTC+2.
  const before = nextTick(
    s,
    Date.parse('2026-03-28T09:00:00Z'),
    Date.parse('2026-03-28T09:00:00Z'),
  );
  expect(new Date(before).toISOString()).toBe('2026-03-29T07:00:00.000Z');
  expect(new Date(nextTick(s, before, before)).toISOString()).toBe('2026-03-30T07:00:00.000Z');
});

it('refuses schedules naming the field', () => {
  expect(field({ intervalSeconds: 60 })).toBeUndefined();
  expect(field({ cron: '*/5 * * * *', timezone: 'America/New_York' })).toBeUndefined();
  expect(field({})).toBe('schedule');
  expect(field({ cron: '* * * * *', intervalSeconds: 60 })).toBe('schedule');
  expect(field({ intervalSeconds: 59 })).toBe('schedule.intervalSeconds');
  expect(field({ intervalSeconds: 60, timezone: 'UTC' })).toBe('schedule.timezone');
  expect(field({ cron: '61 * * * *' })).toBe('schedule.cron');
  expect(field({ cron: '* * * * *', timezone: 'Nowhere/Else' })).toBe('schedule.timezone');
  // Every minute is too often for a 120 s minimum; so is a cron whose gaps are uneven.
  expect(field({ cron: '* * * * *' }, 120)).toBe('schedule.cron');
  expect(field({ cron: '0,1 * * * *' }, 120)).toBe('schedule.cron');
});
