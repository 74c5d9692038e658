#!/usr/bin/env python3
"""Work lost per preemption (issue 69): NODES GPU-like nodes (16 cpu, 8 example.com/gpu), each filled with
pods of one low priority holding 1 to 8 GPUs, started between ten minutes and three days ago, about 40%
with a recent makeroom.dev/checkpointed-at; then a high-priority pod asking for GPUs that fit nowhere.
Each round's layout is drawn from its seed, so every side sees the same rounds; per side (SIDES: alone =
the scheduler without an extender, else name=URL of a makeroom, e.g. worklost=http://127.0.0.1:18136/scheduler)
the scheduler is restarted once. Per round: the victims the scheduler enacted and the work they lost,
priced here as docs/decisions.md states it (cpu 1 a core, a GPU 50, seconds since the later of start and
checkpoint, at most a day), and makeroom's own figures from /debug/decisions (management URL = the
extender's port + 1). Start times are written into the pods' status (the scheduler's latest-start rule
and makeroom both read status.startTime).
Env: PEER + ports (kapi), NODES, ROUNDS, SIDES, GRACE, SEED, OUT."""
import json, os, random, sys, time, urllib.request
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
import control_plane
from fake_kubelet import FakeKubelet

NODES = int(os.environ.get('NODES', '4'))
ROUNDS = int(os.environ.get('ROUNDS', '20'))
GRACE = float(os.environ.get('GRACE', '1'))
SEED = int(os.environ.get('SEED', '69'))
SIDES = os.environ.get('SIDES', 'alone,worklost=http://127.0.0.1:18136/scheduler,default=http://127.0.0.1:18146/scheduler').split(',')
NS = 'wl'
GPU = 'example.com/gpu'
HORIZON = 24 * 3600
BASE = '/api/v1/namespaces/%s/pods' % NS


def log(*a): print(time.strftime('%H:%M:%S'), *a, flush=True)


def iso(t): return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(t))


def layout(r):
    """Round r's running pods per node and the pending pod's GPUs, from its own seed."""
    rnd = random.Random(SEED * 1000 + r)
    pods = []
    for n in range(NODES):
        free_gpu, free_cpu, k = 8, 16, 0
        while free_gpu > 0:
            gpus = min(free_gpu, rnd.choice([1, 1, 2, 2, 4, 8]))
            cpu = min(free_cpu - (1 if free_gpu > gpus else 0), rnd.randint(1, 4))
            started = rnd.randint(10, 3 * 24 * 60)  # minutes ago
            saved = rnd.randint(1, min(started, 120)) if rnd.random() < 0.4 else None
            pods.append({'name': 'n%d-p%d' % (n, k), 'node': 'gpu-%d' % n, 'gpus': gpus, 'cpu': max(1, cpu),
                         'started': started, 'saved': saved})
            free_gpu -= gpus; free_cpu -= max(1, cpu); k += 1
    return pods, rnd.choice([2, 3, 4])


def work_hours(p):
    """Weighted hours p loses if evicted at the round's start (minutes are from then)."""
    unsaved = min(HORIZON, 60 * (p['saved'] if p['saved'] is not None else p['started']))
    return (p['cpu'] + 50 * p['gpus']) * unsaved / 3600.0


def pod_body(name, cpu, gpus, prio, node=None, annotations=None):
    body = {'apiVersion': 'v1', 'kind': 'Pod',
            'metadata': {'name': name, 'annotations': annotations or {}},
            'spec': {'priorityClassName': prio, 'terminationGracePeriodSeconds': 5, 'nodeSelector': {'wl': 'true'},
                     'containers': [{'name': 'c', 'image': 'trainer', 'resources': {
                         'requests': {'cpu': str(cpu), 'memory': '1Gi', GPU: str(gpus)},
                         'limits': {GPU: str(gpus)}}}]}}
    if node:
        body['spec']['nodeName'] = node  # bound at creation, as a scheduler would have
    return body


def pods_now():
    return {p['metadata']['name']: p for p in kapi.req('GET', BASE)['items']}


def clean():
    for n in list(pods_now()):
        kapi.req('DELETE', BASE + '/' + n + '?gracePeriodSeconds=0', ok404=True)
    kapi.wait_for(lambda: not pods_now(), timeout=60, what='round cleaned')


def decisions(url):
    mgmt = url.rsplit(':', 1)[0] + ':' + str(int(url.rsplit(':', 1)[1].split('/')[0]) + 1)
    with urllib.request.urlopen(mgmt + '/debug/decisions?pod=%s/hp' % NS, timeout=5) as resp:
        return json.loads(resp.read())


def one_round(r, kubelet, url):
    pods, pending_gpus = layout(r)
    t0 = time.time()
    for p in pods:
        ann = {'makeroom.dev/checkpointed-at': iso(t0 - 60 * p['saved'])} if p['saved'] is not None else {}
        kapi.req('POST', BASE, pod_body(p['name'], p['cpu'], p['gpus'], 'wl-low', p['node'], ann))
    kapi.wait_for(lambda: all(x['status'].get('phase') == 'Running' for x in pods_now().values()),
                  timeout=60, what='fill running')
    for p in pods:  # the start each pod is said to have had
        kapi.req('PATCH', BASE + '/' + p['name'] + '/status', {'status': {'startTime': iso(t0 - 60 * p['started'])}},
                 ct='application/merge-patch+json')
    removed0 = len(kubelet.removed)
    since = iso(time.time() - 1)
    kapi.req('POST', BASE, pod_body('hp', 2, pending_gpus, 'wl-high'))
    bound = kapi.wait_for(lambda: kapi.req('GET', BASE + '/hp')['spec'].get('nodeName'), timeout=90, what='hp bound')
    time.sleep(GRACE + 1)
    by_name = {p['name']: p for p in pods}
    evicted = sorted(set(n for (_, n, _) in kubelet.removed[removed0:] if n in by_name)
                     | set(n for n, x in pods_now().items() if x['metadata'].get('deletionTimestamp') and n in by_name))
    row = {'round': r, 'bound': bound, 'pending_gpus': pending_gpus, 'evicted': evicted,
           'work_hours': round(sum(work_hours(by_name[n]) for n in evicted), 2),
           'best_possible_one_node': None}
    # the least work any set on one node could lose (brute force over each node's pods)
    best = None
    for n in range(NODES):
        here = [p for p in pods if p['node'] == 'gpu-%d' % n]
        for mask in range(1, 1 << len(here)):
            chosen = [here[i] for i in range(len(here)) if mask >> i & 1]
            if sum(p['gpus'] for p in chosen) >= pending_gpus and 16 - sum(p['cpu'] for p in here) + sum(
                    p['cpu'] for p in chosen) >= 2:
                w = sum(work_hours(p) for p in chosen)
                best = w if best is None else min(best, w)
    row['best_possible_one_node'] = round(best, 2)
    if url:
        d = [x for x in decisions(url) if x.get('at', '') >= since and x.get('outcome') == 'PREEMPT']
        if d:
            row['makeroom_work_hours'] = d[-1].get('workLostHours')
            row['schedulers_pick_work_hours'] = (d[-1].get('schedulersPick') or {}).get('workLostHours')
            row['makeroom_detail'] = d[-1].get('detail')
    clean()
    return row


def main():
    kapi.wait_ready()
    for name, value in (('wl-low', 100), ('wl-high', 1000)):
        try:
            kapi.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {'apiVersion': 'scheduling.k8s.io/v1',
                     'kind': 'PriorityClass', 'metadata': {'name': name}, 'value': value})
        except kapi.ApiError as e:
            if e.status != 409: raise
    for n in range(NODES):
        if kapi.req('GET', '/api/v1/nodes/gpu-%d' % n, ok404=True) is None:
            kapi.make_ready_node('gpu-%d' % n, cpu='16', memory='64Gi', pods='110', labels={'wl': 'true'},
                                 extra_capacity={GPU: '8'})
    kapi.ensure_namespace(NS)
    kubelet = FakeKubelet([NS], grace=GRACE).start()
    clean()
    results = {}
    for side in SIDES:
        name, _, url = side.partition('=')
        control_plane.start_scheduler(url or None, verbs=('preempt',))
        rows = []
        for r in range(ROUNDS):
            row = one_round(r, kubelet, url or None)
            log(name, row)
            rows.append(row)
        results[name] = rows
    kubelet.stop()
    json.dump(results, open(os.path.join(os.environ.get('OUT', '.'), 'work-lost-%s.json' % os.path.basename(PEER)), 'w'),
              indent=1)
    for name, rows in results.items():
        at_best = sum(1 for x in rows if abs(x['work_hours'] - x['best_possible_one_node']) < 0.01)
        log('SUMMARY %s %s: %d rounds, work lost %.1f h in all (the least possible %.1f h), the least in %d rounds,'
            ' victims %d' % (PEER, name, len(rows), sum(x['work_hours'] for x in rows),
                             sum(x['best_possible_one_node'] for x in rows), at_best, sum(len(x['evicted']) for x in rows)))


if __name__ == '__main__':
    main()
