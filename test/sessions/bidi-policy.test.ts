import { describe, expect, it } from 'vitest';
import { checkBidiCommand } from '../../src/sessions/bidi-policy.ts';

const FILES = '/tmp/wd-sess-x/b-1/files';
const verdict = (method: string, params: Record<string, unknown> = {}) =>
  checkBidiCommand({ id: 1, method, params }, FILES);

describe('what a Firefox session client may do', () => {
  it('answers session starts and ends and browser.close itself', () => {
    expect(verdict('session.new').action).toBe('session-new');
    expect(verdict('session.end').action).toBe('session-end');
    expect(verdict('browser.close').action).toBe('close');
  });

  it('puts only files of the session folder into pages, by bare name or path', () => {
    expect(verdict('input.setFiles', { files: ['a.pdf', `${FILES}/b.pdf`] })).toEqual({
      action: 'rewrite',
      command: {
        id: 1,
        method: 'input.setFiles',
        params: { files: [`${FILES}/a.pdf`, `${FILES}/b.pdf`] },
      },
    });
    for (const files of [['/etc/hostname'], [`${FILES}/../profile/cookies.sqlite`], ['x\0'], 'a'])
      expect(verdict('input.setFiles', { files }).action).toBe('refuse');
  });

  it('refuses local schemes, extensions and a context proxy; confines downloads', () => {
    expect(verdict('browsingContext.navigate', { url: 'file:///etc/passwd' }).action).toBe(
      'refuse',
    );
    expect(verdict('browsingContext.navigate', { url: 'https://example.com/' }).action).toBe(
      'forward',
    );
    expect(verdict('network.continueRequest', { url: 'view-source:https://a/' }).action).toBe(
      'refuse',
    );
    expect(verdict('webExtension.install', { extensionData: {} }).action).toBe('refuse');
    expect(verdict('browser.createUserContext', { proxy: { proxyType: 'direct' } }).action).toBe(
      'refuse',
    );
    expect(verdict('browser.createUserContext', {}).action).toBe('forward');
    const download = verdict('browser.setDownloadBehavior', {
      downloadBehavior: { type: 'allowed', destinationFolder: '/etc' },
    });
    expect(download).toMatchObject({
      action: 'rewrite',
      command: { params: { downloadBehavior: { type: 'allowed', destinationFolder: FILES } } },
    });
    expect(
      verdict('browser.setDownloadBehavior', { downloadBehavior: { type: 'denied' } }).action,
    ).toBe('forward');
  });
});
