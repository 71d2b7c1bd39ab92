import { DASHBOARD_PATH, sandboxPath } from '../contract/mounts.js';
import { END_OF_TIME_MS } from '../domain/clock.js';
import type { DriftView } from '../upstream/drift.js';
import { dateTimeOf, durationWords, isoOf } from './format.js';
import type { ClockView, SandboxPickerView, ScenarioView } from './model.js';

// The panels that show one thing each rather than a list: the clock, the scenario and the drift report. The live feed renders them
// again when what they show changes (`clockKey` and `scenarioKey` in `model.ts` say when).

/** Where a sandbox's dashboard is: the root's, or an isolated one's under its `/sandboxes/{id}`. */
export const dashboardOf = (id: string | null) =>
  id === null ? DASHBOARD_PATH : `${sandboxPath(id)}${DASHBOARD_PATH}`;

/**
 * The picker of the sandbox the page shows: the root (persistent) and every isolated sandbox. The live feed renders
 * it again when one is made or dropped; choosing one opens its dashboard (without a script: the links below it).
 */
export function SandboxPicker({ picker }: { picker: SandboxPickerView }) {
  const { current, ids } = picker;
  const gone = current !== null && !ids.includes(current);
  return (
    <span id="sandbox-panel" class="inline">
      <label for="sandbox-picker">Sandbox</label>
      <select id="sandbox-picker" aria-label="Show another sandbox" data-count={String(ids.length)}>
        <option value={dashboardOf(null)} selected={current === null}>
          root (persistent)
        </option>
        {ids.map((id) => (
          <option value={dashboardOf(id)} selected={id === current}>
            {id} (isolated)
          </option>
        ))}
        {gone ? (
          <option value="" selected>
            {current} (deleted)
          </option>
        ) : null}
      </select>
      <noscript>
        {[null, ...ids].map((id) => (
          <a href={dashboardOf(id)}>{id ?? 'root'}</a>
        ))}
      </noscript>
    </span>
  );
}

const ADVANCE_STEPS: [label: string, ms: number][] = [
  ['+1 min', 60_000],
  ['+1 h', 3_600_000],
  ['+1 day', 86_400_000],
];

/**
 * The virtual clock: now (the page keeps it ticking while the clock runs, from `data-offset-ms`, and stops it at
 * `data-end`, the end of the clock's range, as the server does), frozen or running, how far it is from real time, and the calls that move it.
 */
export function ClockPanel({ clock }: { clock: ClockView }) {
  const { now, frozen, offsetMs } = clock;
  const nowMs = Date.parse(now);
  const away =
    Math.abs(offsetMs) < 1000
      ? 'on real time'
      : `${durationWords(offsetMs)} ${offsetMs > 0 ? 'ahead of' : 'behind'} real time`;
  return (
    <div
      id="clock-panel"
      data-frozen={String(frozen)}
      data-offset-ms={String(offsetMs)}
      data-now={String(nowMs)}
      data-end={String(END_OF_TIME_MS)}
    >
      <p class="clock-line">
        <time id="clock-now" datetime={isoOf(nowMs)}>
          {dateTimeOf(isoOf(nowMs))}
        </time>{' '}
        <span class={`badge ${frozen ? 'frozen' : 'ok'}`}>{frozen ? 'frozen' : 'running'}</span>{' '}
        <span class="muted">{away} (UTC)</span>
      </p>
      <div class="inline">
        {ADVANCE_STEPS.map(([label, ms]) => (
          <button type="button" data-call="POST /__sandbox/clock/advance" data-body={JSON.stringify({ ms })}>
            {label}
          </button>
        ))}
        <form class="inline" data-call="POST /__sandbox/clock/advance">
          <input
            name="ms"
            type="number"
            min="1"
            step="1"
            data-times="_unit"
            placeholder="how far"
            aria-label="Advance the clock by"
            required
          />
          <select name="_unit" aria-label="Unit">
            <option value="1000">seconds</option>
            <option value="60000" selected>
              minutes
            </option>
            <option value="3600000">hours</option>
            <option value="86400000">days</option>
          </select>
          <button type="submit">Advance</button>
        </form>
        {frozen ? (
          <button type="button" data-call="POST /__sandbox/clock/freeze" data-body='{"frozen":false}'>
            Let it run
          </button>
        ) : (
          <button type="button" data-call="POST /__sandbox/clock/freeze" data-body='{"frozen":true}'>
            Freeze
          </button>
        )}
      </div>
    </div>
  );
}

/** The active scenario, and the calls that change it or reset the whole state. */
export function ScenarioPanel({ scenario: active }: { scenario: ScenarioView }) {
  return (
    <div id="scenario-panel">
      <p>
        Active: <strong data-scenario={active.name}>{active.name}</strong>
        {active.overrides > 0 ? ` (+${active.overrides} override rules)` : ''}
        <span class="muted"> — {active.description}</span>
      </p>
      <details id="scenario-rules" class="detail">
        <summary>{active.rules.length} rules in force</summary>
        <ol class="rules">
          {active.rules.map((rule) => (
            <li>
              <code>{rule}</code>
            </li>
          ))}
        </ol>
      </details>
      <div class="inline">
        <form class="inline" data-call="PUT /__sandbox/scenario">
          <select name="name" aria-label="Ready scenario">
            {active.ready.map((s) => (
              <option value={s.name} title={s.description} selected={s.name === active.name}>
                {s.name}
              </option>
            ))}
          </select>
          <button type="submit">Use scenario</button>
        </form>
        <button
          type="button"
          data-call="POST /__sandbox/reset"
          data-confirm="Reset the whole state to the fixtures?"
        >
          Reset sandbox
        </button>
      </div>
    </div>
  );
}

/**
 * With `--upstream`: the drift report, route by route, each finding once with its count; without it, how to start
 * one. The live feed renders it again whenever the report moves.
 */
export function DriftPanel({ drift }: { drift: DriftView }) {
  if (drift.upstream === null)
    return (
      <div id="drift-panel" data-upstream="">
        <p class="muted">
          No upstream: this sandbox answers <code>/api/v1</code> itself. Start it with{' '}
          <code>--upstream URL</code> (the real bank’s sandbox, ending in <code>/api/v1</code>) to forward
          every call there and see here where its answers differ from the routes the sandbox emulates.
        </p>
      </div>
    );
  const findings = drift.routes.reduce((n, r) => n + r.findings.length, 0);
  return (
    <div id="drift-panel" data-upstream={drift.upstream} data-findings={String(findings)}>
      <p>
        Forwarding <code>/api/v1</code> to <strong>{drift.upstream}</strong>:{' '}
        <span class={`badge ${findings > 0 ? 'failed' : 'ok'}`}>
          {findings} {findings === 1 ? 'finding' : 'findings'}
        </span>{' '}
        <button type="button" data-call="DELETE /__sandbox/drift">
          Clear
        </button>
      </p>
      {drift.routes.length === 0 ? (
        <p class="muted">No call forwarded yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Route</th>
              <th>Calls</th>
              <th>Statuses</th>
              <th>Findings</th>
            </tr>
          </thead>
          <tbody>
            {drift.routes.map((route) => (
              <tr>
                <td>
                  <code>
                    {route.method} {route.path}
                  </code>
                </td>
                <td>{route.calls}</td>
                <td>
                  {Object.entries(route.statuses)
                    .map(([status, n]) => `${status} ×${n}`)
                    .join(', ')}
                </td>
                <td>
                  {route.findings.length === 0 ? (
                    <span class="muted">none</span>
                  ) : (
                    <ul class="findings">
                      {route.findings.map((f) => (
                        <li data-kind={f.kind}>
                          <strong>{f.kind}</strong> at <code>{f.at}</code>: expected {f.expected}, seen{' '}
                          {f.seen}{' '}
                          <span class="muted">
                            ×{f.count}, first <code>{f.requestId}</code>
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
