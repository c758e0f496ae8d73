import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SANDBOX_PROXY_URL } from './sandbox.ts';

/**
 * The enterprise policy of a Firefox session browser, mounted read-only inside its sandbox only
 * (sandbox.ts), as chromium-policy.ts is for Chromium: no file:// pages, no about:config (whose
 * preferences hold the proxy), profiles or add-ons pages, no extensions, downloads only into the
 * session's own folder, the egress proxy locked, and none of Mozilla's services. Developer tools
 * stay enabled: in Firefox that switch turns WebDriver BiDi off too.
 *
 * Debian's firefox-esr reads policies only from the `distribution` folder beside its binary
 * (not /etc/firefox/policies), so the sandbox shows the policy folder there.
 */
export function firefoxPolicy(downloadsDir: string): Record<string, unknown> {
  const proxy = new URL(SANDBOX_PROXY_URL).host;
  return {
    policies: {
      Proxy: {
        Mode: 'manual',
        HTTPProxy: proxy,
        SSLProxy: proxy,
        UseHTTPProxyForAllProtocols: true,
        Passthrough: '',
        Locked: true,
      },
      WebsiteFilter: { Block: ['file:///*'] },
      BlockAboutConfig: true,
      BlockAboutProfiles: true,
      BlockAboutAddons: true,
      BlockAboutSupport: true,
      ExtensionSettings: { '*': { installation_mode: 'blocked' } },
      DownloadDirectory: downloadsDir,
      DefaultDownloadDirectory: downloadsDir,
      PromptForDownloadLocation: false,
      DisableAppUpdate: true,
      DisableTelemetry: true,
      DisableFirefoxStudies: true,
      DisablePocket: true,
      DisableFirefoxAccounts: true,
      DontCheckDefaultBrowser: true,
      CaptivePortal: false,
      NetworkPrediction: false,
      DNSOverHTTPS: { Enabled: false, Locked: true },
      OfferToSaveLogins: false,
      PasswordManagerEnabled: false,
      PrintingEnabled: false,
    },
  };
}

/** Where a Firefox build at `executable` reads its policy folder. */
export async function firefoxPolicyFolder(executable: string): Promise<string> {
  const binary = await realpath(executable);
  return realpath(join(dirname(binary), 'distribution')).catch(() =>
    join(dirname(binary), 'distribution'),
  );
}

export async function writeFirefoxPolicy(policyDir: string, downloadsDir: string): Promise<void> {
  await mkdir(policyDir, { recursive: true });
  await writeFile(
    join(policyDir, 'policies.json'),
    JSON.stringify(firefoxPolicy(downloadsDir), null, 2),
  );
}
