#!/usr/bin/env python3
"""Defragmentation check (issue 51): four 4-cpu nodes, Deployments web and cache (4 x 1 cpu each, one per
node), a 4-cpu pod 'report' of the same priority (it cannot preempt). makeroom's rescheduler (evict mode,
defragment after 5s) must move two pods off one node; the pod must then bind. ROUNDS rounds."""
import json, os, sys, time
PEER = os.environ['PEER']; sys.path.insert(0, PEER)
import kapi
from fake_kubelet import FakeKubelet
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from preempt_rounds import start_scheduler, log  # same scheduler wiring

NS = 'df'
ROUNDS = int(os.environ.get('ROUNDS', '5'))
GRACE = float(os.environ.get('GRACE', '3'))

def deployment(name):
    labels = {'app': name}
    return {'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': name},
            'spec': {'replicas': 4, 'selector': {'matchLabels': labels},
                     'template': {'metadata': {'labels': labels}, 'spec': {
                         'terminationGracePeriodSeconds': 5, 'nodeSelector': {'df': 'true'},
                         'topologySpreadConstraints': [{'maxSkew': 1, 'topologyKey': 'kubernetes.io/hostname',
                              'whenUnsatisfiable': 'ScheduleAnyway', 'labelSelector': {'matchLabels': labels}}],
                         'containers': [{'name': 'c', 'image': 'busybox',
                                         'resources': {'requests': {'cpu': '1', 'memory': '64Mi'}}}]}}}}

def report():
    return {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'report'},
            'spec': {'terminationGracePeriodSeconds': 5, 'nodeSelector': {'df': 'true'},
                     'containers': [{'name': 'c', 'image': 'busybox',
                                     'resources': {'requests': {'cpu': '4', 'memory': '64Mi'}}}]}}

def pods():
    return {p['metadata']['name']: p for p in kapi.req('GET', '/api/v1/namespaces/%s/pods' % NS)['items']}

def per_node():
    out = {}
    for n, p in pods().items():
        if p['spec'].get('nodeName') and not p['metadata'].get('deletionTimestamp'):
            out.setdefault(p['spec']['nodeName'], []).append(n.split('-')[0])
    return {k: sorted(v) for k, v in sorted(out.items())}

def make_nodes():
    """The four 4-cpu nodes labelled df=true, and the namespace."""
    for i in range(1, 5):
        n = 'df-%d' % i
        if kapi.req('GET', '/api/v1/nodes/' + n, ok404=True) is None:
            kapi.make_ready_node(n, cpu='4', memory='16Gi', pods='110', labels={'df': 'true'})
    kapi.ensure_namespace(NS)

def fill():
    """Deployments web and cache, four replicas each, all Running."""
    for d in ('web', 'cache'):
        kapi.req('POST', '/apis/apps/v1/namespaces/%s/deployments' % NS, deployment(d))
    kapi.wait_for(lambda: sum(len(v) for v in per_node().values()) == 8
                  and all(p['status'].get('phase') == 'Running' for p in pods().values()), timeout=90,
                  what='8 replicas running')

def clean():
    """The round's Deployments and report gone."""
    for d in ('web', 'cache'):
        kapi.req('DELETE', '/apis/apps/v1/namespaces/%s/deployments/%s' % (NS, d), ok404=True)
    kapi.req('DELETE', '/api/v1/namespaces/%s/pods/report?gracePeriodSeconds=0' % NS, ok404=True)
    kapi.wait_for(lambda: not pods(), timeout=90, what='round cleaned')

def main():
    kapi.wait_ready()
    start_scheduler()
    make_nodes()
    kubelet = FakeKubelet([NS], grace=GRACE).start()
    summary = []
    for r in range(ROUNDS):
        fill()
        before = per_node()
        balanced = all(len(v) == 2 for v in before.values()) and len(before) == 4
        t0 = time.time()
        kapi.req('POST', '/api/v1/namespaces/%s/pods' % NS, report())
        bound = None
        while time.time() - t0 < 150:
            p = kapi.req('GET', '/api/v1/namespaces/%s/pods/report' % NS)
            bound = p['spec'].get('nodeName')
            if bound:
                break
            time.sleep(0.5)
        took = round(time.time() - t0, 1)
        moved = [n for (_, n, _) in kubelet.removed]
        log('round %d: before %s balanced=%s; report bound to %s after %s s; pods removed so far %d' % (
            r, before, balanced, bound, took, len(moved)))
        summary.append({'round': r, 'balanced': balanced, 'bound': bound, 'seconds': took, 'after': per_node()})
        clean()
        time.sleep(2)
    kubelet.stop()
    json.dump(summary, open(os.environ.get('OUT', '.') + '/defrag-%s.json' % os.path.basename(PEER), 'w'), indent=1)
    ok = [s['seconds'] for s in summary if s['bound']]
    log('SUMMARY %s: %d/%d rounds bound; seconds %s' % (PEER, len(ok), len(summary), ok))

if __name__ == '__main__':
    main()
