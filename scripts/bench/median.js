// The timing method every benchmark uses on both sides: calibrate until a
// round takes at least ROUND_SECONDS, then take the median of ROUNDS rounds
// (a run that takes seconds is timed once). `huddle-bench` does the same.
'use strict';
const rounds = 15;
const roundSeconds = 0.2;

function time(iterations, body) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) body();
  return Number(process.hrtime.bigint() - start);
}

/** Median nanoseconds per call of `body`. */
function median(body) {
  const first = time(1, body);
  if (first > 2e9) return first;
  let iterations = 1;
  for (;;) {
    const elapsed = time(iterations, body);
    if (elapsed >= roundSeconds * 1e9) break;
    iterations = elapsed < 1e6 ? iterations * 10 : Math.floor(iterations * roundSeconds * 1e9 / elapsed) + 1;
  }
  const samples = [];
  for (let r = 0; r < rounds; r++) samples.push(time(iterations, body) / iterations);
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

/** `name<TAB>bytes<TAB>ns<TAB>MB/s`, the line `huddle-bench` prints. */
function report(name, bytes, ns) {
  console.log(`${name}\t${bytes}\t${ns.toFixed(0)}\t${(bytes / ns * 1e9 / 1e6).toFixed(1)}`);
}

module.exports = { median, report };
