import { parseHTML } from 'linkedom';
import { expect, it } from 'vitest';

// linkedom is patched (patches/linkedom+0.18.12.patch) to keep a parsed class attribute as it is
// and make an element's classList only when it is asked for; class reads, edits and selectors
// must behave as in a browser.
it('reads a class as parsed and keeps classList, the attribute and selectors in step', () => {
  const { document } = parseHTML(
    '<html><body><p id="a" class=" card  wide card">one</p><p id="b">two</p></body></html>',
  );
  const a = document.getElementById('a')!;
  const b = document.getElementById('b')!;
  expect(a.getAttribute('class')).toBe(' card  wide card');
  expect(a.className).toBe(' card  wide card');
  expect(b.className).toBe('');
  expect(document.querySelectorAll('.wide.card').length).toBe(1);
  expect([...a.classList]).toEqual(['card', 'wide']);

  a.classList.remove('wide');
  expect(a.getAttribute('class')).toBe('card');
  expect(document.querySelector('.wide')).toBeNull();
  b.classList.add('new');
  expect(b.outerHTML).toContain('class="new"');
  b.setAttribute('class', 'x y');
  expect(b.classList.contains('y')).toBe(true);
  expect(document.querySelector('p.x.y')).toBe(b);
  b.removeAttribute('class');
  expect(b.hasAttribute('class')).toBe(false);
  expect(b.classList.contains('x')).toBe(false);
});
