import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The mandatory Chromium policy of a session browser, mounted read-only inside its sandbox only
 * (sandbox.ts), so the host's /etc and the page pools' browsers are untouched. The sandbox is
 * what keeps host files out of reach; the policy makes the browser's own paths to files refuse
 * politely instead of opening onto an empty file system: no file:// or internal pages, no file
 * choosers, Save As or Open File dialogs, downloads only into the session's own folder, no
 * DevTools pages, no printing to files, no extensions, and none of the Google services that
 * would call out through the egress proxy.
 *
 * Debian's Chromium reads /etc/chromium/policies/managed/*.json; the headless shell reads no
 * policy at all, and needs none: it has no dialogs or omnibox, so a headless session's only
 * input is CDP, which cdp-policy.ts filters, inside the same sandbox.
 */
export function sessionPolicy(downloadsDir: string): Record<string, unknown> {
  return {
    URLBlocklist: ['file://*', 'chrome://*', 'devtools://*', 'view-source:*', 'filesystem:*'],
    // The browser's own interface (the omnibox popup) is built of *.top-chrome pages; blocked, it
    // would show as an error page beside the user's tab.
    URLAllowlist: ['chrome://top-chrome'],
    AllowFileSelectionDialogs: false,
    DefaultFileSystemReadGuardSetting: 2,
    DefaultFileSystemWriteGuardSetting: 2,
    DownloadDirectory: downloadsDir,
    PromptForDownloadLocation: false,
    PrintingEnabled: false,
    ExtensionInstallBlocklist: ['*'],
    BrowserSignin: 0,
    BrowserGuestModeEnabled: false,
    BrowserAddPersonEnabled: false,
    SyncDisabled: true,
    MetricsReportingEnabled: false,
    SafeBrowsingProtectionLevel: 0,
    TranslateEnabled: false,
    SpellcheckEnabled: false,
    SearchSuggestEnabled: false,
    PasswordManagerEnabled: false,
    BackgroundModeEnabled: false,
    DefaultBrowserSettingEnabled: false,
  };
}

/** Writes the policy into `policyDir`, the folder the sandbox mounts as the managed policy folder. */
export async function writeSessionPolicy(policyDir: string, downloadsDir: string): Promise<void> {
  await mkdir(policyDir, { recursive: true });
  await writeFile(
    join(policyDir, 'webdata-session.json'),
    JSON.stringify(sessionPolicy(downloadsDir), null, 2),
  );
}
