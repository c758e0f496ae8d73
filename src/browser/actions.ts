import { setTimeout as delay } from 'node:timers/promises';
import type { Page, Request } from 'playwright-core';
import type { Action } from '../contract/index.ts';
import { ActionError, shortMessage } from './errors.ts';
import { type Guard, goBack, openUrl } from './navigate.ts';

/** Time one click, type or press may take to find its element. */
export const ACTION_TIMEOUT_MS = 10_000;
/** waitForSelector's time-out when the step gives none. */
export const WAIT_FOR_SELECTOR_DEFAULT_MS = 10_000;

export interface ActionEnv {
  guard: Guard;
  navigationTimeoutMs: number;
  /**
   * The request's signal (client gone, job cancelled). Every pause and polling loop here stops on
   * it: a wait of 30 s would otherwise keep the page, and the pool's place, taken after the
   * caller left.
   */
  signal?: AbortSignal;
}

/**
 * Runs `act`, then lets the page settle: a navigation it started is waited for until `load`, and
 * requests it set off (lazy loading, XHR after a click or scroll) are given a short while to end.
 */
async function settled(page: Page, env: ActionEnv, act: () => Promise<unknown>): Promise<void> {
  const sleep = (ms: number) => delay(ms, undefined, { signal: env.signal });
  let navigating = false;
  let inflight = 0;
  let loaded!: () => void;
  const load = new Promise<void>((r) => (loaded = r));
  const onRequest = (r: Request) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigating = true;
    else inflight++;
  };
  const onDone = (r: Request) => {
    if (!r.isNavigationRequest()) inflight = Math.max(0, inflight - 1);
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  page.on('load', loaded);
  try {
    await act();
    await sleep(100);
    if (navigating) {
      await Promise.race([
        load,
        sleep(env.navigationTimeoutMs).then(() =>
          Promise.reject(
            new Error(
              `the navigation it started did not load within ${env.navigationTimeoutMs} ms`,
            ),
          ),
        ),
      ]);
      return;
    }
    const quietBy = Date.now() + 3000;
    while (inflight > 0 && Date.now() < quietBy) await sleep(50);
    // Responses that arrived need a moment for the page's script to render them.
    await sleep(50);
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
    page.off('load', loaded);
  }
}

async function perform(page: Page, action: Action, env: ActionEnv): Promise<void> {
  switch (action.type) {
    case 'click':
      return settled(page, env, () =>
        page.locator(action.selector).first().click({ timeout: ACTION_TIMEOUT_MS }),
      );
    case 'type':
      return settled(page, env, () =>
        page.locator(action.selector).first().fill(action.text, { timeout: ACTION_TIMEOUT_MS }),
      );
    case 'press':
      return settled(page, env, () => page.keyboard.press(action.key));
    case 'wait':
      await delay(action.milliseconds, undefined, { signal: env.signal });
      return;
    case 'scroll': {
      const sign = action.direction === 'up' ? -1 : 1;
      return settled(page, env, async () => {
        if (action.selector) {
          await page
            .locator(action.selector)
            .first()
            .evaluate((el, s) => el.scrollBy(0, s * (el.clientHeight || 400)), sign, {
              timeout: ACTION_TIMEOUT_MS,
            });
        } else {
          await page.evaluate((s) => window.scrollBy(0, s * window.innerHeight), sign);
        }
      });
    }
    case 'waitForSelector': {
      const timeout = action.timeout ?? WAIT_FOR_SELECTOR_DEFAULT_MS;
      try {
        await page.locator(action.selector).first().waitFor({ state: 'attached', timeout });
      } catch (err) {
        if (err instanceof Error && err.name === 'TimeoutError')
          throw new Error(`no element matched "${action.selector}" within ${timeout} ms`);
        throw err;
      }
      return;
    }
    case 'navigate':
      await openUrl(page, action.url, env.guard, env.navigationTimeoutMs);
      return;
    case 'goBack':
      await goBack(page, env.guard, env.navigationTimeoutMs);
      return;
  }
}

/** Runs one action; a failure becomes an ActionError naming `list[index]`. */
export async function runAction(
  page: Page,
  action: Action,
  index: number,
  env: ActionEnv,
  list = 'actions',
): Promise<void> {
  env.signal?.throwIfAborted();
  try {
    await perform(page, action, env);
  } catch (err) {
    if (env.signal?.aborted) throw env.signal.reason;
    if (page.isClosed() || page.context().browser()?.isConnected() === false) throw err;
    throw new ActionError(list, index, action.type, shortMessage(err));
  }
}
