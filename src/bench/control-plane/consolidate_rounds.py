#!/usr/bin/env python3
"""Consolidation against a real scheduler (issue 50): does it empty nodes with the fewest evictions, do
the replacements land where makeroom proved they fit, and does a node kept empty yield to pods waiting?

Six 4-cpu nodes cs-0..cs-5. 'base' (4 x 1200m) runs on cs-0 and cs-1 (60% each), 'small' (4 x 300m) on
cs-2 and cs-3 (15% each); cs-4 and cs-5 are empty (each placed by cordoning the other nodes meanwhile).
Then the consolidate policy is switched on (the ConfigMap makeroom-rescheduler: below 30% cpu, ceiling
80%, one node at a time): the right answer empties cs-2 and cs-3 with 4 evictions, their pods packed
onto cs-0 and cs-1, and never puts a pod on cs-4 or cs-5. After SETTLE seconds, 'whole' (4 x 3500m) is
created: two take cs-4 and cs-5, the other two fit only on the nodes kept empty, which must be released.

GANG (issue 55): 'kept' labels the four 'small' pods one coscheduling gang (two on cs-2, two on cs-3)
and leaves moveWholeGangs off: nothing may be evicted, no node emptied; 'whole' turns it on: the gang
must leave whole, all four evicted in one round (their eviction times are reported), and land packed.

Env: PEER (+ ports), MR (makeroom's extender URL), MRM (its management URL), ROUNDS (2), SCORING
(MostAllocated; 'default' for the scheduler's own), SETTLE (60), GRACE (2), GANG ('', kept, whole),
WHOLE_PRIORITY (a value: 'whole' gets a PriorityClass above the others, so the scheduler asks preempt
for the two that fit only on kept nodes at once; makeroom must release those nodes and evict no one). makeroom runs with
--makeroom.rescheduler.enabled=true --makeroom.rescheduler.mode=evict --makeroom.rescheduler.interval=5s
and no policies file (the ConfigMap is read)."""
import json, os, re, sys, time, urllib.request
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
import control_plane
from fake_kubelet import FakeKubelet

NS = 'cs'
NODES = ['cs-%d' % i for i in range(6)]
MR = os.environ.get('MR', 'http://127.0.0.1:18136/scheduler')
MRM = os.environ.get('MRM', 'http://127.0.0.1:18137')
ROUNDS = int(os.environ.get('ROUNDS', '2'))
SCORING = os.environ.get('SCORING', 'MostAllocated')
SETTLE = float(os.environ.get('SETTLE', '60'))
GRACE = float(os.environ.get('GRACE', '2'))
GANG = os.environ.get('GANG', '')
WHOLE_PRIORITY = os.environ.get('WHOLE_PRIORITY', '')
POLICIES = """policies:
  rebalance: {enabled: false}
  consolidate:
    enabled: true
    below: {cpu: 30}
    ceiling: {cpu: 80}
    nodesAtOnce: 1
    keepEmptyFor: 10m
    drainWithin: 5m
    moveWholeGangs: %s
limits: {perRound: 10, perNodePerRound: 4, perNamespacePerHour: 1000, perControllerPerHour: 1000, clusterPerHour: 1000}
scope: {minPodAge: 0s}
"""


def log(*a):
    print(time.strftime('%H:%M:%S'), *a, flush=True)


def deployment(name, replicas, cpu, gang=None, priority_class=None):
    labels = {'app': name}
    pod_labels = dict(labels, **({'scheduling.x-k8s.io/pod-group': gang} if gang else {}))
    return {'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': name},
            'spec': {'replicas': replicas, 'selector': {'matchLabels': labels},
                     'template': {'metadata': {'labels': pod_labels}, 'spec': {
                         'terminationGracePeriodSeconds': 2, 'nodeSelector': {'cs': 'true'},
                         **({'priorityClassName': priority_class} if priority_class else {}),
                         'containers': [{'name': 'c', 'image': 'busybox',
                                         'resources': {'requests': {'cpu': cpu, 'memory': '64Mi'}}}]}}}}


def pods():
    return [p for p in kapi.req('GET', '/api/v1/namespaces/%s/pods' % NS)['items']
            if not p['metadata'].get('deletionTimestamp')]


def placement():
    out = {n: [] for n in NODES}
    for p in pods():
        node = p['spec'].get('nodeName')
        if node:
            out[node].append(p['metadata']['labels']['app'])
    return {n: sorted(v) for n, v in out.items()}


def cordon(names, on):
    for n in names:
        kapi.req('PATCH', '/api/v1/nodes/' + n, {'spec': {'unschedulable': on}}, ct='application/merge-patch+json')


def taints(name):
    return [t for t in kapi.req('GET', '/api/v1/nodes/' + name)['spec'].get('taints') or []
            if t['key'] == 'makeroom.dev/consolidating']


def clear_taints_and_annotations():
    for n in NODES:
        node = kapi.req('GET', '/api/v1/nodes/' + n)
        kept = [t for t in node['spec'].get('taints') or [] if not t['key'].startswith('makeroom.dev/')]
        notes = {k: None for k in (node['metadata'].get('annotations') or {}) if k.startswith('makeroom.dev/')
                 or k == 'scheduler.alpha.kubernetes.io/preferAvoidPods'}
        kapi.req('PATCH', '/api/v1/nodes/' + n, {'metadata': {'annotations': notes}, 'spec': {'taints': kept}},
                 ct='application/merge-patch+json')


def policies(on):
    path = '/api/v1/namespaces/makeroom-system/configmaps'
    kapi.req('DELETE', path + '/makeroom-rescheduler', ok404=True)
    if on:
        kapi.req('POST', path, {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'makeroom-rescheduler'},
                                'data': {'rescheduler.yaml': POLICIES % ('true' if GANG == 'whole' else 'false')}})


def running(app, n):
    return sum(1 for p in pods() if p['metadata']['labels']['app'] == app
               and p['status'].get('phase') == 'Running' and p['spec'].get('nodeName')) == n


def landings():
    try:
        text = urllib.request.urlopen(MRM + '/actuator/prometheus', timeout=5).read().decode()
    except Exception:
        return {}
    return {m.group(1): float(m.group(2)) for m in
            re.finditer(r'^makeroom_rescheduler_landings_total\{result="([a-z_]+)"\} (\S+)$', text, re.M)}


def one_round(r, kubelet):
    cordon(NODES[2:], True)
    kapi.req('POST', '/apis/apps/v1/namespaces/%s/deployments' % NS, deployment('base', 4, '1200m'))
    kapi.wait_for(lambda: running('base', 4), timeout=90, what='base running')
    cordon(NODES[:2], True)
    cordon(NODES[2:4], False)
    kapi.req('POST', '/apis/apps/v1/namespaces/%s/deployments' % NS, deployment('small', 4, '300m', 'small' if GANG else None))
    kapi.wait_for(lambda: running('small', 4), timeout=90, what='small running')
    cordon(NODES, False)
    before = placement()
    log('round %d: before %s' % (r, before))
    removed_before = len(kubelet.removed)
    landed_before = landings()
    policies(True)
    t0 = time.time()
    filled_empty = set()
    emptied_at = {}
    evicted_at = {}  # pod name -> seconds since the policy went on, when the kubelet finished it
    while time.time() - t0 < SETTLE:
        for (_, name, _) in kubelet.removed[removed_before:]:
            evicted_at.setdefault(name, round(time.time() - t0, 1))
        now = placement()
        filled_empty |= {n for n in ('cs-4', 'cs-5') if now[n]}
        for n in NODES:
            if n not in emptied_at and any(t.get('value', '').startswith('empty.') for t in taints(n)):
                emptied_at[n] = round(time.time() - t0, 1)
        time.sleep(1)
    after = placement()
    evicted = kubelet.removed[removed_before:]
    names = [name for (_, name, _) in evicted]
    landed = {k: landings().get(k, 0) - landed_before.get(k, 0) for k in ('as_planned', 'elsewhere', 'expired')}
    gang_spread = (round(max(evicted_at[n] for n in names if n.startswith('small')) - min(
        evicted_at[n] for n in names if n.startswith('small')), 1) if any(n.startswith('small') for n in names) else None)
    log('round %d: after %s; evictions %d %s; emptied %s; empty nodes filled %s; landings %s; small evicted within %s s' % (
        r, after, len(evicted), sorted(set((node, name.split('-')[0]) for (_, name, node) in evicted)), emptied_at,
        sorted(filled_empty), landed, gang_spread))
    # the kept nodes yield: two whole-node pods fit only on cs-2 and cs-3 once cs-4 and cs-5 are taken
    t1 = time.time()
    removed_at_whole = len(kubelet.removed)
    kapi.req('POST', '/apis/apps/v1/namespaces/%s/deployments' % NS,
             deployment('whole', 4, '3500m', priority_class='cs-middle' if WHOLE_PRIORITY else None))
    bound_in = None
    while time.time() - t1 < 120:
        if running('whole', 4):
            bound_in = round(time.time() - t1, 1)
            break
        time.sleep(1)
    evicted_for_whole = [name for (_, name, _) in kubelet.removed[removed_at_whole:]]
    log('round %d: whole x4 %s; placement %s; evicted meanwhile %s' % (r, 'all running after %s s' % bound_in if bound_in
                                                                       else 'NOT all running after 120 s', placement(),
                                                                       evicted_for_whole))
    policies(False)
    for d in ('base', 'small', 'whole'):
        kapi.req('DELETE', '/apis/apps/v1/namespaces/%s/deployments/%s' % (NS, d), ok404=True)
    kapi.wait_for(lambda: not pods(), timeout=120, what='round cleaned')
    clear_taints_and_annotations()
    return {'round': r, 'scoring': SCORING, 'before': before, 'after': after, 'evictions': len(evicted),
            'evicted': names, 'gang': GANG, 'small_evicted_within_s': gang_spread, 'evicted_twice': sorted({n for n in names if names.count(n) > 1}),
            'emptied_after_s': emptied_at, 'empty_nodes_filled': sorted(filled_empty), 'landings': landed,
            'whole_running_after_s': bound_in, 'evicted_while_whole_waited': evicted_for_whole}


def main():
    kapi.wait_ready()
    control_plane.start_scheduler(MR, scoring=None if SCORING == 'default' else SCORING)
    for n in NODES:
        if kapi.req('GET', '/api/v1/nodes/' + n, ok404=True) is None:
            kapi.make_ready_node(n, cpu='4', memory='16Gi', pods='110', labels={'cs': 'true'})
    kapi.ensure_namespace(NS)
    kapi.ensure_namespace('makeroom-system', wait_sa=False)
    if WHOLE_PRIORITY and kapi.req('GET', '/apis/scheduling.k8s.io/v1/priorityclasses/cs-middle', ok404=True) is None:
        kapi.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {'apiVersion': 'scheduling.k8s.io/v1',
                 'kind': 'PriorityClass', 'metadata': {'name': 'cs-middle'}, 'value': int(WHOLE_PRIORITY)})
    policies(False)
    clear_taints_and_annotations()
    kubelet = FakeKubelet([NS], grace=GRACE).start()
    results = [one_round(r, kubelet) for r in range(ROUNDS)]
    kubelet.stop()
    json.dump(results, open(os.environ.get('OUT', '.') + '/consolidate-%s-%s%s.json' % (os.path.basename(PEER), SCORING,
                                                                                      '-gang-' + GANG if GANG else ''),
                            'w'), indent=1)
    log('SUMMARY %s %s%s: evictions %s; empty nodes filled %s; landings %s; whole running after %s s; evicted while'
        ' whole waited %s%s' % (
        os.path.basename(PEER), SCORING, ' gang ' + GANG if GANG else '', [x['evictions'] for x in results],
        [x['empty_nodes_filled'] for x in results], [x['landings'] for x in results],
        [x['whole_running_after_s'] for x in results], [x['evicted_while_whole_waited'] for x in results],
        '; small evicted within %s s' % [x['small_evicted_within_s'] for x in results] if GANG else ''))


if __name__ == '__main__':
    main()
