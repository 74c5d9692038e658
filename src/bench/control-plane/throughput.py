#!/usr/bin/env python3
"""Scheduling throughput with and without makeroom in the scheduler's path (issue 56's benchmark).

N empty nodes (4 cpu) and M small pods (100m) are created while no scheduler runs; then the scheduler
starts, alone or with makeroom registered as the README wires it (nodeCacheCapable: true; the verbs in
WIRING, by default filter,prioritize,preempt), and schedules them all. pods/s = pods scheduled between the first and the last
scheduled one, from the scheduler's own scheduler_schedule_attempts_total{result="scheduled"} polled
every 0.2 s. makeroom's own time per verb: its makeroom_extender_request_seconds (sum / count) over the
run. RUNS alternates alone / with makeroom, fresh pods each time.
makeroom's CPU per pod scheduled: its process's CPU time over the same window, from /proc when MR_PID
names it (makeroom on this machine); it counts the watch as well as the verbs, so the alone runs show
what watching costs. Env: PEER + ports, NODES (5000), PODS (3000), RUNS (2), WIRING,
MR (http://127.0.0.1:18136/scheduler), MRM, MR_PID."""
import json, os, re, ssl, sys, time, urllib.request
from concurrent.futures import ThreadPoolExecutor
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
import control_plane

NODES = int(os.environ.get('NODES', '5000'))
PODS = int(os.environ.get('PODS', '3000'))
RUNS = int(os.environ.get('RUNS', '2'))
MR = os.environ.get('MR', 'http://127.0.0.1:18136/scheduler')
MRM = os.environ.get('MRM', 'http://127.0.0.1:18137')
WIRING = os.environ.get('WIRING', 'filter,prioritize,preempt').split(',')  # the verbs registered
MR_PID = os.environ.get('MR_PID')
NS = 'tp'
SCHED = 'https://127.0.0.1:%s/metrics' % os.environ.get('SCHED_PORT', '10259')


def log(*a):
    print(time.strftime('%H:%M:%S'), *a, flush=True)


def scheduled():
    ctx = ssl.create_default_context()
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    ctx.load_cert_chain(os.path.join(PEER, 'pki', 'admin.crt'), os.path.join(PEER, 'pki', 'admin.key'))
    try:
        with urllib.request.urlopen(SCHED, context=ctx, timeout=5) as r:
            text = r.read().decode()
    except Exception:
        return None
    m = re.search(r'^scheduler_schedule_attempts_total\{[^}]*result="scheduled"[^}]*\} (\S+)$', text, re.M)
    return float(m.group(1)) if m else 0.0


def makeroom_times():
    try:
        with urllib.request.urlopen(MRM + '/actuator/prometheus', timeout=5) as r:
            text = r.read().decode()
    except Exception:
        return {}
    out = {}
    for verb in ('filter', 'prioritize', 'preempt'):
        s = sum(float(v) for v in re.findall(r'^makeroom_extender_request_seconds_sum\{[^}]*verb="%s"[^}]*\} (\S+)$' % verb, text, re.M))
        c = sum(float(v) for v in re.findall(r'^makeroom_extender_request_seconds_count\{[^}]*verb="%s"[^}]*\} (\S+)$' % verb, text, re.M))
        out[verb] = (s, c)
    return out


def makeroom_cpu_seconds():
    if not MR_PID:
        return None
    with open('/proc/%s/stat' % MR_PID) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')  # utime + stime


def make_pods():
    body = lambda i: {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'p-%05d' % i},
                      'spec': {'terminationGracePeriodSeconds': 0, 'containers': [{'name': 'c', 'image': 'busybox',
                               'resources': {'requests': {'cpu': '100m', 'memory': '64Mi'}}}]}}
    with ThreadPoolExecutor(16) as ex:
        list(ex.map(lambda i: kapi.req('POST', '/api/v1/namespaces/%s/pods' % NS, body(i)), range(PODS)))


def delete_pods():
    kapi.req('DELETE', '/api/v1/namespaces/%s/pods' % NS, {'apiVersion': 'v1', 'kind': 'DeleteOptions',
                                                         'gracePeriodSeconds': 0})
    kapi.wait_for(lambda: not kapi.req('GET', '/api/v1/namespaces/%s/pods?limit=1' % NS)['items'], timeout=300,
                  what='pods deleted')


def one_run(with_makeroom):
    make_pods()
    before = makeroom_times()
    # the client's default 50 QPS would measure its rate limiter, not scheduling
    control_plane.start_scheduler(MR if with_makeroom else None, verbs=WIRING, ignorable=True, qps=5000, verbosity='1',
                                  name='throughput')
    samples, t0, cpu = [], time.time(), [makeroom_cpu_seconds()]
    while time.time() - t0 < 600:
        n = scheduled()
        if n is not None:
            samples.append((time.time(), n))
            if n > 0 and len(cpu) == 1:
                cpu.append(makeroom_cpu_seconds())  # from the first pod scheduled
            if n >= PODS:
                cpu.append(makeroom_cpu_seconds())
                break
        time.sleep(0.2)
    control_plane.stop_scheduler()
    after = makeroom_times()
    first = next(t for t, n in samples if n > 0)
    last = next(t for t, n in samples if n >= PODS)
    rate = (PODS - 1) / (last - first) if last > first else float('nan')
    own = {v: round(1000 * (after[v][0] - before.get(v, (0, 0))[0]) / max(1, after[v][1] - before.get(v, (0, 0))[1]), 3)
           for v in after if after[v][1] - before.get(v, (0, 0))[1] > 0}
    calls = {v: int(after[v][1] - before.get(v, (0, 0))[1]) for v in after}
    delete_pods()
    extra = {} if cpu[0] is None or len(cpu) < 3 else {
        'makeroom_cpu_ms_per_pod': round(1000 * (cpu[2] - cpu[1]) / max(1, PODS - 1), 3)}
    return {**extra, 'with_makeroom': ','.join(WIRING) if with_makeroom else False, 'pods_per_second': round(rate, 1), 'seconds': round(last - first, 2),
            'makeroom_mean_ms': own, 'makeroom_calls': calls}


def main():
    kapi.wait_ready()
    control_plane.stop_scheduler()
    kapi.ensure_namespace(NS)
    have = len(kapi.req('GET', '/api/v1/nodes')['items'])
    if have < NODES:
        with ThreadPoolExecutor(16) as ex:
            list(ex.map(lambda i: kapi.make_ready_node('tp-%05d' % i, cpu='4', memory='16Gi', pods='110'),
                        range(have, NODES)))
    log('%d nodes' % len(kapi.req('GET', '/api/v1/nodes')['items']))
    results = []
    for r in range(RUNS):
        for with_makeroom in (False, True):
            res = one_run(with_makeroom)
            log(json.dumps(res))
            results.append(res)
    json.dump(results, open(os.environ.get('OUT', '.') + '/throughput-%s.json' % os.path.basename(PEER), 'w'), indent=1)
    alone = [r['pods_per_second'] for r in results if not r['with_makeroom']]
    withm = [r['pods_per_second'] for r in results if r['with_makeroom']]
    log('SUMMARY alone %s pods/s, with makeroom %s pods/s' % (alone, withm))


if __name__ == '__main__':
    main()
