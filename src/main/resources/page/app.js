// makeroom's page: the debug API's own JSON, drawn. Every call is relative ("../nodes"), so the page
// works where it is served: /debug/page/ on the management port, or through the API server at
// /apis/debug.makeroom.dev/v1/page/ (kubectl proxy). The view and what it shows live in the URL's
// fragment, so a link can be shared: #/nodes?label=zone=a, #/node/<name>, #/pod/<namespace>/<name>.
'use strict';

const view = document.getElementById('view');

// ---- small helpers -------------------------------------------------------------------------------

/** An element with attributes and children (strings become text, never HTML). */
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** The debug API's answer, or an Error carrying its {"error": …} or Status message. */
async function api(path, options) {
  const response = await fetch('../' + path, Object.assign({ headers: { Accept: 'application/json' } }, options));
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try { const body = JSON.parse(text); message = body.error || body.message || text; } catch (e) { /* as sent */ }
    throw new Error(response.status + ': ' + message);
  }
  const type = response.headers.get('Content-Type') || '';
  return type.includes('json') ? JSON.parse(text) : text;
}

function show(title, ...content) {
  document.title = title + ' — makeroom';
  view.replaceChildren(el('h2', null, title), ...content.flat().filter(c => c !== null && c !== undefined));
  view.setAttribute('aria-busy', 'false');
}

function failed(title, error) {
  show(title, el('p', { class: 'error', role: 'alert' }, String(error.message || error)));
}

/** Kubernetes' units: cpu in cores, memory in Gi/Mi/Ki, anything else as it is. */
function amount(resource, value) {
  if (resource === 'cpu') return String(Math.round(value) / 1000);
  if (resource === 'memory' || resource === 'ephemeral-storage') {
    for (const [unit, size] of [['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]]) {
      if (value >= size) return (Math.round(value / size * 10) / 10) + unit;
    }
  }
  return String(value);
}

function amounts(map) {
  return Object.entries(map || {}).map(([r, v]) => r + ' ' + amount(r, v)).join(', ') || '—';
}

/** A time as the debug API gives it, to the second: 2026-11-27 19:41:41Z. */
function when(at) {
  return at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function podLink(ref) {
  return el('a', { href: '#/pod/' + ref }, ref);
}

function nodeLink(name) {
  return el('a', { href: '#/node/' + encodeURIComponent(name) }, name);
}

function table(headings, rows) {
  return el('table', null, el('thead', null, el('tr', null, headings.map(h => el('th', { scope: 'col' }, h)))),
    el('tbody', null, rows.map(cells => el('tr', null, cells.map(c => el('td', null, c))))));
}

// ---- priorities: one colour per priority, highest first ------------------------------------------

const PALETTE = ['#0a3069', '#0969da', '#54aeff', '#1a7f37', '#4ac26b', '#bf8700', '#fb8f44', '#cf222e'];
const OTHER = '#8c959f';

function colours(priorities) {
  const sorted = [...new Set(priorities)].map(Number).sort((a, b) => b - a);
  const colour = new Map(sorted.map((p, i) => [String(p), i < PALETTE.length ? PALETTE[i] : OTHER]));
  const legend = el('ul', { class: 'legend', 'aria-label': 'Priorities' }, sorted.slice(0, PALETTE.length)
    .map(p => el('li', null, el('span', { class: 'swatch', style: 'background:' + colour.get(String(p)) }), 'priority ' + p)),
    sorted.length > PALETTE.length ? el('li', null, el('span', { class: 'swatch', style: 'background:' + OTHER }), 'lower') : null);
  return { of: p => colour.get(String(p)) || OTHER, legend };
}

// ---- nodes ---------------------------------------------------------------------------------------

const RESOURCES = ['cpu', 'memory', 'pods'];
const ROW = 56; // px, as .row in app.css

/** One resource's bar: what each priority requests of what the node can give, and the words for it. */
function bar(node, resource, colour) {
  const total = node.allocatable[resource] || 0;
  const used = node.requested[resource] || 0;
  const share = total > 0 ? Math.round(used / total * 100) : 0;
  const words = resource + ': ' + amount(resource, used) + ' of ' + amount(resource, total) + ' requested (' + share + '%)';
  const segments = Object.entries(node.requestedByPriority || {}).sort((a, b) => Number(b[0]) - Number(a[0]))
    .map(([priority, requests]) => el('span', {
      style: 'width:' + (total > 0 ? Math.min(100, (requests[resource] || 0) / total * 100) : 0) + '%;background:' + colour(priority),
      title: 'priority ' + priority + ': ' + amount(resource, requests[resource] || 0)
    }));
  return el('div', { class: 'resource', 'data-resource': resource, 'data-share': share },
    el('div', { class: 'bar', role: 'img', 'aria-label': words }, segments),
    el('span', { class: 'bar-text', 'aria-hidden': 'true' }, words));
}

function flags(node) {
  const said = [];
  if (node.unschedulable) said.push('cordoned');
  if (node.keptEmpty) said.push('kept empty');
  const other = node.taints.filter(t => !t.startsWith('makeroom.dev/consolidating') && !t.startsWith('node.kubernetes.io/unschedulable'));
  if (other.length) said.push('tainted ' + other.join(', '));
  if (node.nominated.length) said.push(node.nominated.length + ' nominated');
  return said.length ? el('span', { class: 'flags' }, said.join(' · ')) : null;
}

/** label=value, label, or part of a name; several, comma-separated, must all hold. */
function matches(node, filter) {
  return filter.split(',').map(s => s.trim()).filter(Boolean).every(term => {
    const eq = term.indexOf('=');
    if (eq > 0) return node.labels[term.slice(0, eq)] === term.slice(eq + 1);
    return term in node.labels || node.name.includes(term);
  });
}

/**
 * The nodes as a window onto the whole list: only the rows in view (and a few beyond) are in the page,
 * so 5,000 nodes draw as fast as 20.
 */
function rowsWindow(nodes, colour) {
  const rows = el('div', { class: 'rows', tabindex: '0', role: 'list', 'aria-label': nodes.length + ' nodes',
    style: 'height:min(70vh,' + (nodes.length * ROW + 2) + 'px)' });
  const inner = el('div', { style: 'height:' + nodes.length * ROW + 'px' });
  rows.append(inner);
  const draw = () => {
    const first = Math.max(0, Math.floor(rows.scrollTop / ROW) - 5);
    const last = Math.min(nodes.length, Math.ceil((rows.scrollTop + rows.clientHeight) / ROW) + 5);
    inner.replaceChildren(...nodes.slice(first, last).map((node, i) => el('div', {
      class: 'row', role: 'listitem', 'data-node': node.name, style: 'top:' + (first + i) * ROW + 'px'
    }, el('div', { class: 'name' }, nodeLink(node.name), flags(node)), RESOURCES.map(r => bar(node, r, colour)))));
  };
  let pending = false;
  rows.addEventListener('scroll', () => {
    if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; draw(); }); }
  });
  return { rows, draw };
}

async function nodesView(query) {
  const filter = query.get('label') || '';
  let nodes;
  try { nodes = await api('nodes'); } catch (e) { return failed('Nodes', e); }
  const colour = colours(nodes.flatMap(n => Object.keys(n.requestedByPriority || {})));
  const shown = nodes.filter(n => matches(n, filter));
  const form = el('form', { role: 'search', onsubmit: e => {
    e.preventDefault();
    location.hash = '#/nodes' + (input.value ? '?label=' + encodeURIComponent(input.value) : '');
  } });
  const input = el('input', { name: 'label', value: filter, placeholder: 'zone=a, gpu, node-1', size: 30 });
  form.append(el('label', null, 'Filter by label or name', input), el('button', { type: 'submit' }, 'Filter'));
  const list = rowsWindow(shown, colour.of);
  show('Nodes', form, el('p', { class: 'summary' }, shown.length + ' of ' + nodes.length + ' nodes'
    + (filter ? ' match ' + filter : '') + '. Each bar is what the bound pods request of what the node can give,'
    + ' by priority.'), colour.legend, list.rows);
  list.draw();
  performance.mark('makeroom:nodes-drawn'); // when the nodes view drew, for its benchmark
}

async function nodeView(name) {
  let detail;
  try { detail = await api('nodes/' + encodeURIComponent(name)); } catch (e) { return failed('Node ' + name, e); }
  const node = detail.node;
  const colour = colours(Object.keys(node.requestedByPriority || {}));
  show('Node ' + name,
    el('p', null, flags(node) || 'Schedulable, no taints.'),
    colour.legend,
    el('div', { class: 'row', style: 'position:static', 'data-node': name }, el('div'), RESOURCES.map(r => bar(node, r, colour.of))),
    el('h3', null, detail.pods.length + ' pods'),
    table(['Pod', 'Priority', 'Class', 'Requests', 'Queue', 'May it be preempted?'], detail.pods.map(p => [
      podLink(p.pod), p.priority, p.priorityClass || '—', amounts(p.requests), p.queue || '—',
      (p.terminating ? 'terminating; ' : '') + p.protection])));
}

// ---- a pod's story -------------------------------------------------------------------------------

function storyForms(ref) {
  const input = el('input', { name: 'pod', value: ref || '', placeholder: 'namespace/name', size: 40, required: true });
  const ask = el('form', { onsubmit: e => { e.preventDefault(); location.hash = '#/pod/' + input.value.trim(); } },
    el('label', null, 'A pod in the cluster', input), el('button', { type: 'submit' }, 'Tell its story'));
  const yaml = el('textarea', { name: 'yaml', 'aria-label': 'A Pod as YAML or JSON', placeholder: 'apiVersion: v1\nkind: Pod\n…' });
  const paste = el('form', { onsubmit: e => { e.preventDefault(); story(null, yaml.value); } },
    el('label', null, 'Or a pod of your own (YAML or JSON), not created', yaml), el('button', { type: 'submit' }, 'Simulate it'));
  return [ask, paste];
}

/** Per node: what the scheduler's filters say now, and what preemption would do there. */
function storyTable(simulation) {
  const decision = simulation.preemption;
  const byNode = new Map((decision ? decision.nodes : []).map(n => [n.node, n]));
  const filters = new Map();
  simulation.fitsOn.forEach(n => filters.set(n, el('span', { class: 'fits' }, 'fits')));
  Object.entries(simulation.doesNotFit).forEach(([n, why]) => filters.set(n, 'refused: ' + why));
  Object.entries(simulation.unresolvable).forEach(([n, why]) => filters.set(n, 'refused, and evicting cannot help: ' + why));
  Object.entries(simulation.unknown).forEach(([n, why]) => filters.set(n, 'cannot tell: ' + why));
  const names = [...filters.keys()].sort();
  return table(['Node', "The scheduler's filters now", 'Preemption there'], names.map(n => {
    const verdict = byNode.get(n);
    let preemption = '—';
    if (verdict && verdict.feasible) {
      preemption = el('span', null, (decision.answeredNodes.includes(n) ? 'chosen: ' : '') + 'evict ',
        verdict.victims.flatMap((v, i) => [i ? ', ' : '', podLink(v.pod), ' (priority ' + v.priority + ')']));
    } else if (verdict) {
      preemption = 'no: ' + (verdict.detail || verdict.reason);
    }
    return [nodeLink(n), filters.get(n), preemption];
  }));
}

async function story(ref, yaml) {
  const title = ref ? 'The story of ' + ref : 'The story of a pod of your own';
  view.setAttribute('aria-busy', 'true');
  let simulation;
  let words;
  try {
    const body = ref ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ pod: ref }) }
      : { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: yaml };
    simulation = await api('simulate', body);
    words = await api(ref ? 'why?pod=' + encodeURIComponent(ref) : 'why', ref ? undefined : body).catch(e => String(e.message));
  } catch (e) {
    return show(title, ...storyForms(ref), el('p', { class: 'error', role: 'alert' }, String(e.message)));
  }
  const decision = simulation.preemption;
  show(title, ...storyForms(ref),
    el('p', null, simulation.pod + ': priority ' + simulation.priority + (simulation.queue ? ', queue ' + simulation.queue : '')
      + ", as kube-scheduler " + simulation.kubernetesVersion + ' would see it.'),
    el('p', { class: 'verdict' }, simulation.fitsOn.length ? 'Fits now on ' + simulation.fitsOn.join(', ') + '.'
      : 'Fits on no node now.'),
    el('p', { class: 'decision' }, decision ? 'Preemption: ' + decision.outcome + ' (' + decision.detail + ')'
      + (decision.answeredNodes.length ? ', ' + decision.workLostHours.toFixed(2) + ' h of work lost.' : '.')
      : 'Preemption: not tried (no node where evicting pods could help).'),
    storyTable(simulation),
    el('details', null, el('summary', null, 'In words'), el('pre', null, words)));
}

/** The story view with no pod chosen yet: the pods waiting, each a link to its story. */
async function pendingView() {
  let pending;
  try { pending = await api('pending'); } catch (e) { return failed("A pod's story", e); }
  const shown = pending.slice(0, 500);
  show("A pod's story", ...storyForms(''),
    el('h3', null, pending.length + ' pods waiting' + (pending.length > shown.length ? ' (the first 500 shown)' : '')),
    table(['Pod', 'Priority', 'Requests', 'Queue', 'Nominated to'], shown.map(p => [
      podLink(p.pod), String(p.priority), amounts(p.requests), p.queue || '—', p.nominatedNode || '—'])));
}

// ---- decisions -----------------------------------------------------------------------------------

async function decisionsView() {
  let decisions;
  try { decisions = await api('decisions'); } catch (e) { return failed('Decisions', e); }
  const rows = decisions.map(d => {
    const chosen = d.nodes.find(n => n.feasible && d.answeredNodes.includes(n.node));
    const mine = chosen ? chosen.victims.length : null;
    const pick = d.schedulersPick;
    return [when(d.at), podLink(d.pod), d.outcome, d.detail,
      pick ? pick.node + ': ' + pick.victims + ' victims' : '—',
      pick && mine !== null ? String(pick.victims - mine) : '—',
      mine === null ? '—' : d.workLostHours.toFixed(2) + (pick ? ' / ' + pick.workLostHours.toFixed(2) : '')];
  });
  show('Decisions', el('p', null, decisions.length + (decisions.length === 1 ? ' recent preemption decision' : ' recent preemption decisions')
    + ' of the replica that answered, newest first.'),
    table(['When', 'Pod', 'Outcome', "makeroom's answer", "The scheduler's own pick", 'Victims spared',
      "Work lost, h (makeroom / the scheduler's pick)"], rows));
}

// ---- queues --------------------------------------------------------------------------------------

function queueRows(queue, depth, rows) {
  rows.push([el('span', { style: 'padding-left:' + depth * 1.2 + 'rem' }, queue.name), amounts(queue.usage),
    amounts(queue.guaranteed), amounts(queue.max), queue.belowGuarantee.join(', ') || '—', String(queue.pending),
    String(queue.preempting), queue.policy]);
  queue.children.forEach(child => queueRows(child, depth + 1, rows));
  return rows;
}

async function queuesView() {
  let config;
  try { config = await api('queues'); } catch (e) { return failed('Queues', e); }
  if (!config.enabled) return show('Queues', el('p', null, 'No queues are configured (' + config.source + ').'));
  show('Queues', el('p', null, 'From ' + config.source + '; pods without a queue go to ' + config.defaultQueue + '.'),
    config.error ? el('p', { class: 'error' }, 'The last document was rejected: ' + config.error) : null,
    table(['Queue', 'Uses', 'Guaranteed', 'Max', 'Below its guarantee in', 'Pending', 'Preempting', 'Policy'],
      queueRows(config.root, 0, [])));
}

// ---- rescheduler ---------------------------------------------------------------------------------

function round(r) {
  const skips = new Map();
  r.skipped.forEach(s => skips.set(s.category, (skips.get(s.category) || []).concat([s])));
  return el('section', { class: 'round', 'aria-label': 'Round at ' + r.at },
    el('h3', null, when(r.at) + ' — ' + r.mode + (r.idle ? ' (idle: ' + r.idle + ')' : '')),
    r.moves.length ? table(['Pod', 'Policy', 'Why', 'From', 'To (proven)', 'Result'], r.moves.map(m => [
      podLink(m.pod), m.policy, m.reason, nodeLink(m.from), m.to ? nodeLink(m.to) : '—', m.result + (m.detail ? ': ' + m.detail : '')]))
      : el('p', { class: 'moves' }, r.nothingMoved ? 'No moves: ' + r.nothingMoved + '.' : 'No moves.'),
    r.landings.length ? table(['Moved', 'Proven on', 'Landed on', 'Result'], r.landings.map(l => [
      l.moved, l.planned, l.landed || '—', l.result])) : null,
    r.drains.length ? table(['Drain of', 'Step', 'Why', 'Result'], r.drains.map(d => [
      nodeLink(d.node), d.step, d.reason, d.result + (d.detail ? ': ' + d.detail : '')])) : null,
    r.rooms.length ? table(['Room for', 'On', 'Moved', 'Held until'], r.rooms.map(room => [
      podLink(room.pending), nodeLink(room.node), room.moved.join(', '), room.reservedUntil || '—'])) : null,
    skips.size ? el('details', null, el('summary', null, r.skipped.length + (r.skipped.length === 1 ? ' pod' : ' pods')
      + ' not moved, by reason'),
      table(['Reason', 'Pods', 'For example'], [...skips].map(([category, list]) => [
        category, String(list.length), list[0].pod + ': ' + list[0].reason]))) : null);
}

async function reschedulerView() {
  let state;
  try { state = await api('rescheduler'); } catch (e) { return failed('Rescheduler', e); }
  const plan = el('div', { id: 'plan' });
  const planNow = el('button', { type: 'button', onclick: async () => {
    plan.replaceChildren(el('p', null, 'Planning…'));
    try { plan.replaceChildren(el('h3', null, 'What a round would do now'), round(await api('rescheduler/plan', { method: 'POST' }))); }
    catch (e) { plan.replaceChildren(el('p', { class: 'error', role: 'alert' }, String(e.message))); }
  } }, 'What would a round do now?');
  show('Rescheduler',
    el('p', null, (state.enabled ? 'On' : 'Off') + ', ' + state.mode + (state.leading ? ', leading here' : ', not leading here')
      + '; policies from ' + state.config.source + '.'),
    planNow, plan,
    el('h3', null, state.rounds.length + ' recent rounds'),
    state.rounds.map(round));
}

// ---- routes --------------------------------------------------------------------------------------

async function route() {
  const [path, search] = (location.hash.slice(1) || '/nodes').split('?');
  const query = new URLSearchParams(search || '');
  const parts = path.split('/').filter(Boolean);
  document.querySelectorAll('nav a').forEach(a => {
    if (a.getAttribute('href') === '#/' + (parts[0] === 'node' ? 'nodes' : parts[0])) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  view.setAttribute('aria-busy', 'true');
  switch (parts[0]) {
    case 'node': return nodeView(decodeURIComponent(parts.slice(1).join('/')));
    case 'pod': return parts.length >= 3 ? story(parts[1] + '/' + parts[2]) : pendingView();
    case 'decisions': return decisionsView();
    case 'queues': return queuesView();
    case 'rescheduler': return reschedulerView();
    default: return nodesView(query);
  }
}

window.addEventListener('hashchange', () => route().then(() => view.focus()));
route();
