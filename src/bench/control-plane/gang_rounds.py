#!/usr/bin/env python3
"""Gang-aware preemption against a real scheduler (issue 55). Three nodes of 2, 2 and 4 cpu: gang-a holds
worker-0 (2 cpu) of a coscheduling gang of four (label scheduling.x-k8s.io/pod-group; no minimum on the
pods, so every member is needed), gang-c the other three workers (1 cpu each), gang-b two independent
pods of 1 cpu; all at one low priority. A high-priority pod of 2 cpu fits nowhere. The scheduler alone
evicts one worker (one victim: the fewest), which stops the gang of four; makeroom should name gang-b's
two independent pods. For each side in SIDES (makeroom, alone), ROUNDS rounds: fill, create the pod,
wait for it to bind, record who was evicted.
Then a waiting gang: three nodes of 2 cpu, each full with a 2-cpu pod, and a gang of three 2-cpu
workers at priority 1,000 created together (minimum 3 by makeroom.dev/gang-min-member). "short": the third node's pod is above the workers'
priority, so only two workers can ever run: makeroom should evict nothing; "room": all three can,
and should all bind (with makeroom.preemption.gang-hold set, the nodes held for the other two are
recorded). The waiting gang's minimum comes from its coscheduling PodGroup (minMember 3), whose CRD
`python3 gang_rounds.py crd` installs; run that before makeroom starts, which watches PodGroups of the
kinds served at its start.
Then the first layout again with the gang's PodGroup saying minMember 3 (one worker of four may go):
makeroom should now take worker-0 alone, within the gang's slack, as the scheduler alone does.
Env: PEER + ports (kapi), MR, MRM, ROUNDS, SIDES, GRACE, WAIT (s a short gang is watched, 20)."""
import json, os, sys, time
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
import control_plane
from fake_kubelet import FakeKubelet

MR = os.environ.get('MR', 'http://127.0.0.1:18136/scheduler')
ROUNDS = int(os.environ.get('ROUNDS', '5'))
SIDES = os.environ.get('SIDES', 'makeroom,alone').split(',')
GRACE = float(os.environ.get('GRACE', '2'))
NS = 'gang'
GANG = {'scheduling.x-k8s.io/pod-group': 'train'}
WAIT = float(os.environ.get('WAIT', '20'))


def log(*a):
    print(time.strftime('%H:%M:%S'), *a, flush=True)


def pc(name, value):
    try:
        kapi.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {'apiVersion': 'scheduling.k8s.io/v1',
                 'kind': 'PriorityClass', 'metadata': {'name': name}, 'value': value})
    except kapi.ApiError as e:
        if e.status != 409:
            raise


def pod(name, cpu, prio, node=None, labels=None):
    p = {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': name, 'labels': labels or {}},
         'spec': {'priorityClassName': prio, 'terminationGracePeriodSeconds': 1, 'nodeSelector': {'gang': 'true'},
                  'containers': [{'name': 'c', 'image': 'busybox',
                                  'resources': {'requests': {'cpu': cpu, 'memory': '64Mi'}}}]}}
    if node:
        p['spec']['nodeSelector']['kubernetes.io/hostname'] = node
    return p


PODGROUPS = '/apis/scheduling.x-k8s.io/v1alpha1/namespaces/%s/podgroups' % NS


def ensure_podgroup_crd():
    """The coscheduling plugin's PodGroup kind, enough of it to hold spec.minMember."""
    crd = {'apiVersion': 'apiextensions.k8s.io/v1', 'kind': 'CustomResourceDefinition',
           'metadata': {'name': 'podgroups.scheduling.x-k8s.io'},
           'spec': {'group': 'scheduling.x-k8s.io', 'scope': 'Namespaced',
                    'names': {'plural': 'podgroups', 'singular': 'podgroup', 'kind': 'PodGroup', 'shortNames': ['pg']},
                    'versions': [{'name': 'v1alpha1', 'served': True, 'storage': True,
                                  'schema': {'openAPIV3Schema': {'type': 'object',
                                                                 'x-kubernetes-preserve-unknown-fields': True}}}]}}
    try:
        kapi.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)
    except kapi.ApiError as e:
        if e.status != 409:
            raise
    kapi.wait_for(lambda: kapi.req('GET', '/apis/scheduling.x-k8s.io/v1alpha1/podgroups', ok404=True) is not None,
                  timeout=30, what='podgroups served')


def podgroup(name, min_member):
    kapi.req('DELETE', PODGROUPS + '/' + name, ok404=True)
    kapi.req('POST', PODGROUPS, {'apiVersion': 'scheduling.x-k8s.io/v1alpha1', 'kind': 'PodGroup',
                                 'metadata': {'name': name}, 'spec': {'minMember': min_member}})


def pods():
    return {p['metadata']['name']: p for p in kapi.req('GET', '/api/v1/namespaces/%s/pods' % NS)['items']}


def one_round(base, kubelet):
    kapi.req('POST', base, pod('worker-0', '2', 'gang-low', 'gang-a', GANG))
    for i in (1, 2, 3):
        kapi.req('POST', base, pod('worker-%d' % i, '1', 'gang-low', 'gang-c', GANG))
    kapi.req('POST', base, pod('web-1', '1', 'gang-low', 'gang-b', {'app': 'web'}))
    kapi.req('POST', base, pod('web-2', '1', 'gang-low', 'gang-b', {'app': 'web'}))
    kapi.wait_for(lambda: len(pods()) == 6 and all(p['status'].get('phase') == 'Running' for p in pods().values()),
                  timeout=60, what='fill running')
    removed0 = len(kubelet.removed)
    t0 = time.time()
    kapi.req('POST', base, pod('hp', '2', 'gang-high'))
    kapi.wait_for(lambda: kapi.req('GET', base + '/hp')['spec'].get('nodeName'), timeout=60, what='hp bound')
    took = time.time() - t0
    time.sleep(GRACE + 1)  # any later eviction shows
    evicted = sorted(set(n for (_, n, _) in kubelet.removed[removed0:])
                     | set(n for n, p in pods().items() if p['metadata'].get('deletionTimestamp')))
    bound = kapi.req('GET', base + '/hp')['spec'].get('nodeName')
    for n in list(pods()):
        kapi.req('DELETE', base + '/' + n + '?gracePeriodSeconds=0', ok404=True)
    kapi.wait_for(lambda: not pods(), timeout=30, what='round cleaned')
    return {'bound': bound, 'evicted': evicted, 'seconds': round(took, 2),
            'gang_members_evicted': [n for n in evicted if n.startswith('worker-')]}


def waiting_gang(base, kubelet, room):
    """A gang of three waiting workers over three full nodes; room: whether all three can run."""
    for node in ('start-a', 'start-b', 'start-c'):
        high = node == 'start-c' and not room
        fill = pod('fill-' + node, '2', 'gang-top' if high else 'gang-low', labels={'app': 'fill'})
        fill['spec']['nodeSelector'] = {'kubernetes.io/hostname': node}
        kapi.req('POST', base, fill)
    kapi.wait_for(lambda: len(pods()) == 3 and all(p['status'].get('phase') == 'Running' for p in pods().values()),
                  timeout=60, what='fill running')
    removed0 = len(kubelet.removed)
    waiting = {'scheduling.x-k8s.io/pod-group': 'wait'}
    podgroup('wait', 3)  # without a minimum the first worker, asked about before the others exist, is a gang of one
    for i in range(3):
        worker = pod('waiter-%d' % i, '2', 'gang-high', labels=waiting)
        worker['spec']['nodeSelector'] = {'start': 'true'}
        kapi.req('POST', base, worker)
    t0 = time.time()
    bound = lambda: sorted(n for n, p in pods().items() if n.startswith('waiter-') and p['spec'].get('nodeName'))
    if room:
        kapi.wait_for(lambda: len(bound()) == 3, timeout=90, what='the gang bound')
    else:
        time.sleep(WAIT)
    evicted = sorted(set(n for (_, n, _) in kubelet.removed[removed0:])
                     | set(n for n, p in pods().items() if p['metadata'].get('deletionTimestamp')))
    held = {}  # the room makeroom held for the other workers (makeroom.preemption.gang-hold), by node
    for node in ('start-a', 'start-b', 'start-c'):
        entry = (kapi.req('GET', '/api/v1/nodes/' + node)['metadata'].get('annotations') or {}).get('makeroom.dev/reserved-for')
        if entry:
            held[node] = sorted(set(e['pod'] for e in (json.loads(entry) if entry.startswith('[') else [json.loads(entry)])))
    res = {'room': room, 'bound': bound(), 'evicted': evicted, 'seconds': round(time.time() - t0, 1), 'held': held}
    for n in list(pods()):
        kapi.req('DELETE', base + '/' + n + '?gracePeriodSeconds=0', ok404=True)
    kapi.wait_for(lambda: not pods(), timeout=30, what='round cleaned')
    return res


def main():
    kapi.wait_ready()
    ensure_podgroup_crd()
    pc('gang-low', 100)
    pc('gang-high', 1000)
    pc('gang-top', 2000)
    for name, cpu in (('gang-a', '2'), ('gang-b', '2'), ('gang-c', '4')):
        if kapi.req('GET', '/api/v1/nodes/' + name, ok404=True) is None:
            kapi.make_ready_node(name, cpu=cpu, memory='8Gi', pods='110', labels={'gang': 'true'})
    for name in ('start-a', 'start-b', 'start-c'):
        if kapi.req('GET', '/api/v1/nodes/' + name, ok404=True) is None:
            kapi.make_ready_node(name, cpu='2', memory='8Gi', pods='110', labels={'start': 'true'})
    kapi.ensure_namespace(NS)
    kubelet = FakeKubelet([NS], grace=GRACE).start()
    base = '/api/v1/namespaces/%s/pods' % NS
    results = {}
    for side in SIDES:
        control_plane.start_scheduler(MR if side == 'makeroom' else None)
        results[side] = []
        for r in range(ROUNDS):
            res = one_round(base, kubelet)
            log('%s round %d: %s' % (side, r, json.dumps(res)))
            results[side].append(res)
        for room in (False, True):
            res = waiting_gang(base, kubelet, room)
            log('%s waiting gang: %s' % (side, json.dumps(res)))
            results[side + ' waiting'] = results.get(side + ' waiting', []) + [res]
        podgroup('train', 3)
        results[side + ' slack'] = []
        for r in range(ROUNDS):
            res = one_round(base, kubelet)
            log('%s round %d, PodGroup minMember 3: %s' % (side, r, json.dumps(res)))
            results[side + ' slack'].append(res)
        kapi.req('DELETE', PODGROUPS + '/train', ok404=True)
    kubelet.stop()
    json.dump(results, open(os.environ.get('OUT', '.') + '/gang-%s.json' % os.path.basename(PEER), 'w'), indent=1)
    for side, rounds in results.items():
        if side.endswith('waiting'):
            log('SUMMARY %s %s: %s' % (PEER, side, '; '.join('%s: bound %s, evicted %s' % (
                'room for all' if x['room'] else 'room for two', x['bound'], x['evicted']) for x in rounds)))
            continue
        spared = sum(1 for x in rounds if not x['gang_members_evicted'])
        log('SUMMARY %s %s: %d/%d rounds evicted no gang member; evicted %s' % (
            PEER, side, spared, len(rounds), sorted(set(tuple(x['evicted']) for x in rounds))))


if __name__ == '__main__':
    if sys.argv[1:] == ['crd']:
        kapi.wait_ready()
        ensure_podgroup_crd()
    else:
        main()
