#!/usr/bin/env python3
"""Sidecar, gated pod, and a nomination set by someone else, against a real scheduler with makeroom."""
import json, os, sys, time, urllib.request
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
from fake_kubelet import FakeKubelet
from preempt_rounds import start_scheduler, log, pc, pod, NS, MRM

base = '/api/v1/namespaces/%s/pods' % NS
def pods(): return {p['metadata']['name']: p for p in kapi.req('GET', base)['items']}
def get(n): return kapi.req('GET', base + '/' + n, ok404=True)
def clean():
    for n in list(pods()): kapi.req('DELETE', base + '/' + n + '?gracePeriodSeconds=0', ok404=True)
    kapi.wait_for(lambda: not pods(), timeout=30, what='cleaned')
def fill(specs):
    for name, cpu, prio, node in specs:
        kapi.req('POST', base, pod(name, cpu, prio, node, {'app': 'fill'}))
    kapi.wait_for(lambda: all(p['spec'].get('nodeName') and p['status'].get('phase') == 'Running' for p in pods().values()),
                  timeout=60, what='fill running')
def decisions(name):
    with urllib.request.urlopen(MRM + '/debug/decisions?pod=%s/%s' % (NS, name), timeout=5) as r:
        return [(d['outcome'], d['detail']) for d in json.loads(r.read())]
def simulate(name):
    r = urllib.request.Request(MRM + '/debug/simulate', data=json.dumps({'pod': NS + '/' + name}).encode(),
                               headers={'Content-Type': 'application/json'}, method='POST')
    with urllib.request.urlopen(r, timeout=5) as resp:
        d = json.loads(resp.read())
    return {'fitsOn': d['fitsOn'], 'doesNotFit': d['doesNotFit'], 'version': d.get('kubernetesVersion')}
def wait_bound(name, t=40):
    t0 = time.time()
    while time.time() - t0 < t:
        p = get(name)
        if p and p['spec'].get('nodeName'): return p['spec']['nodeName'], round(time.time() - t0, 1)
        time.sleep(0.2)
    return None, t

def main():
    kapi.wait_ready(); start_scheduler()
    pc('mr-low', 100); pc('mr-mid', 500); pc('mr-high', 1000)
    for name, value in (('mr-high-never', 1000), ('mr-low-never', 100)):
        try:
            kapi.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {'apiVersion': 'scheduling.k8s.io/v1',
                     'kind': 'PriorityClass', 'metadata': {'name': name}, 'value': value, 'preemptionPolicy': 'Never'})
        except kapi.ApiError as e:
            if e.status != 409: raise
    for n in ('mr-a', 'mr-b'):
        if kapi.req('GET', '/api/v1/nodes/' + n, ok404=True) is None:
            kapi.make_ready_node(n, cpu='2', memory='4Gi', pods='110', labels={'mr': 'true'})
    kapi.ensure_namespace(NS); kb = FakeKubelet([NS], grace=3).start(); clean()
    out = {}
    # 1. sidecar: 600m app + 600m restartable init = 1.2 cpu: both 1-cpu low pods on mr-a must go
    fill([('low-1', '1', 'mr-low', 'mr-a'), ('low-2', '1', 'mr-low', 'mr-a'), ('mid-1', '2', 'mr-mid', 'mr-b')])
    sc = pod('sidecar', '600m', 'mr-high', labels={'app': 'sc'})
    sc['spec']['initContainers'] = [{'name': 'proxy', 'image': 'busybox', 'restartPolicy': 'Always',
                                     'resources': {'requests': {'cpu': '600m', 'memory': '32Mi'}}}]
    r0 = len(kb.removed); kapi.req('POST', base, sc)
    node, took = wait_bound('sidecar'); time.sleep(4)
    out['sidecar'] = {'bound': node, 'seconds': took, 'evicted': sorted(n for _, n, _ in kb.removed[r0:]),
                      'makeroom': decisions('sidecar')}
    log('sidecar:', out['sidecar']); clean()
    # 2. gated: no preemption while gated; after the gate is removed it preempts like any pod
    fill([('low-1', '2', 'mr-low', 'mr-a'), ('mid-1', '2', 'mr-mid', 'mr-b')])
    g = pod('gated', '1', 'mr-high', labels={'app': 'g'}); g['spec']['schedulingGates'] = [{'name': 'example.com/wait'}]
    r0 = len(kb.removed); kapi.req('POST', base, g); time.sleep(10)
    gated = {'while_gated': {'evicted': [n for _, n, _ in kb.removed[r0:]], 'makeroom': decisions('gated'),
                             'condition': [c.get('reason') for c in get('gated')['status'].get('conditions', [])]}}
    kapi.req('PATCH', base + '/gated', [{'op': 'remove', 'path': '/spec/schedulingGates'}], ct=kapi.JSONPATCH)
    node, took = wait_bound('gated'); time.sleep(4)
    gated['after_gate_removed'] = {'bound': node, 'seconds': took, 'evicted': [n for _, n, _ in kb.removed[r0:]],
                                   'makeroom': decisions('gated')}
    out['gated'] = gated; log('gated:', gated); clean()
    # 3. a nomination set by someone else: a pending 2-cpu pod that can run nowhere, nominated to the empty mr-a
    for holder_prio, expect in (('mr-high-never', 'held'), ('mr-low-never', 'not held')):
        fill([('mid-1', '2', 'mr-mid', 'mr-b')])
        h = pod('holder', '2', holder_prio, labels={'app': 'h'}); h['spec']['nodeSelector']['nowhere'] = 'true'
        kapi.req('POST', base, h); time.sleep(2)
        kapi.req('PATCH', base + '/holder/status', {'status': {'nominatedNodeName': 'mr-a'}}, ct=kapi.MERGE)
        time.sleep(2)
        x = pod('mid-x', '1', 'mr-mid', 'mr-a', {'app': 'x'}); kapi.req('POST', base, x)
        node, took = wait_bound('mid-x', 12)
        res = {'holder_priority': holder_prio, 'holder_nominated': get('holder')['status'].get('nominatedNodeName'),
               'mid_x_bound': node, 'makeroom_simulate_mid_x': simulate('mid-x') if not node else 'bound'}
        out['nominated_by_other_' + expect.replace(' ', '_')] = res; log('nominated (%s):' % expect, res); clean()
    kb.stop()
    json.dump(out, open(os.environ.get('OUT', '.') + '/extra-%s.json' % os.path.basename(PEER), 'w'), indent=1)

if __name__ == '__main__':
    main()
