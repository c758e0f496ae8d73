// Relative paths keep the page working behind a reverse proxy that mounts the service under a prefix.
(async () => {
  const status = document.getElementById('status');
  const show = (state, text) => {
    document.body.dataset.state = state;
    status.textContent = text ?? state;
  };
  const res = await fetch(`replay/recording${location.search}`, { cache: 'no-store' });
  const answer = await res.json();
  if (!res.ok) return show('error', answer.error ?? `error ${res.status}`);
  // A session's tabs record side by side; each is replayed on its own, chosen by its page number.
  const byPage = new Map();
  for (const event of answer.events) {
    if (!byPage.has(event.pageId)) byPage.set(event.pageId, []);
    byPage.get(event.pageId).push(event);
  }
  const playable = [...byPage.entries()].filter(([, events]) => events.length >= 2);
  if (playable.length === 0) return show('empty', 'nothing was recorded');
  const Player = window.rrwebPlayer.default ?? window.rrwebPlayer;
  const target = document.getElementById('player');
  const select = document.getElementById('page');
  const play = (pageId) => {
    target.replaceChildren();
    const events = byPage.get(pageId);
    const meta = events.find((e) => e.type === 4);
    new Player({
      target,
      props: {
        events,
        width: Math.min(window.innerWidth - 20, meta?.data.width ?? 1280),
        height: Math.min(window.innerHeight - 120, meta?.data.height ?? 720),
        autoPlay: false,
      },
    });
    show('ready', `${answer.truncated ? 'truncated ' : ''}recording, page ${pageId}`);
  };
  for (const [pageId] of playable) select.add(new Option(`page ${pageId}`, String(pageId)));
  select.parentElement.hidden = playable.length < 2;
  select.addEventListener('change', () => play(Number(select.value)));
  play(playable[0][0]);
})().catch((err) => {
  document.body.dataset.state = 'error';
  document.getElementById('status').textContent = String(err);
});
