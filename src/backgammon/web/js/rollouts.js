// A rollout of the server's (/api/rollouts) followed from a page: started, read again every
// half second until it ends, each state handed to the page, and cancellable.

import { cancelRollout, getRollout, startRollout } from "./api.js";

const POLL_MS = 500;

/**
 * Start the rollout that `question` asks for and follow it: `update(job)` with each state read,
 * `end(job, error)` once when it has ended (done, cancelled or failed: `job` its last state), or
 * when a request failed (`error`). The answer's `cancel()` stops it; starting throws as the
 * request does (a refusal).
 */
export async function followRollout(question, { update, end }) {
  const { id } = await startRollout(question);
  let timer = null;
  let ended = false;
  const finish = (job, error = null) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    end(job, error);
  };
  const poll = async () => {
    try {
      const job = await getRollout(id);
      if (ended) return;
      update(job);
      if (job.status === "running") timer = setTimeout(poll, POLL_MS);
      else finish(job);
    } catch (error) {
      finish(null, error);
    }
  };
  timer = setTimeout(poll, POLL_MS);
  return {
    id,
    async cancel() {
      if (ended) return;
      clearTimeout(timer);
      try {
        const job = await cancelRollout(id);
        update(job);
        finish(job);
      } catch (error) {
        finish(null, error);
      }
    },
  };
}
