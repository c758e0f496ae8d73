/**
 * Runs `pass` one at a time however often it is triggered: a trigger during a pass asks for one
 * more pass after it, so work that arrived meanwhile is never missed and passes never overlap.
 */
export function coalesced(pass: () => Promise<void>): () => Promise<void> {
  let running = false;
  let again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await pass();
      } while (again);
    } finally {
      running = false;
    }
  };
}
