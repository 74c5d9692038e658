#!/usr/bin/env python3
"""Scheduling throughput with and without makeroom in the scheduler's path, as a cluster runs it.

N empty nodes (4 cpu) and M small pods (100m) are created while no scheduler runs; then the scheduler
starts, alone, with an extender that does nothing (FloorExtender at FLOOR) or with makeroom (at MR),
registered as the README wires it (nodeCacheCapable: true; the verbs in WIRING, by default
filter,prioritize,preempt), and schedules them all. pods/s = pods scheduled between the first and the
last scheduled one, from the scheduler's own scheduler_schedule_attempts_total{result="scheduled"}
polled every 0.2 s. Each of RUNS rounds runs every side of SIDES (alone,floor,makeroom), fresh pods each
time, so all sides see the same hour of the machine.

PIN=1 (the default) places the control plane as a cluster does, apart from the extenders: etcd, the API
server, the controller manager and each scheduler started here on CP_CPUS (0), and the extenders'
processes (MR_PID, FLOOR_PID) on EXT_CPUS (1), with taskset.

makeroom's own time per verb: its makeroom_extender_request_seconds (sum / count) over the run. Its CPU
per pod scheduled: its process's CPU time from /proc (MR_PID), the watch included. Its allocation per
pod scheduled: from jstat (young collections × eden size + eden's growth) over the same window.
Env: PEER + ports, NODES (5000), PODS (3000), RUNS (2), SIDES, WIRING, MR
(http://127.0.0.1:18136/scheduler), MRM, MR_PID, FLOOR (http://127.0.0.1:18140/scheduler), FLOOR_PID,
PIN, CP_CPUS, EXT_CPUS."""
import json, os, re, ssl, subprocess, sys, time, urllib.request
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
FLOOR = os.environ.get('FLOOR', 'http://127.0.0.1:18140/scheduler')
FLOOR_PID = os.environ.get('FLOOR_PID')
SIDES = os.environ.get('SIDES', 'alone,floor,makeroom').split(',')
PIN = os.environ.get('PIN', '1') == '1'
CP_CPUS = os.environ.get('CP_CPUS', '0')
EXT_CPUS = os.environ.get('EXT_CPUS', '1')
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


def pin(pid, cpus):
    subprocess.run(['taskset', '-a', '-cp', cpus, str(pid)], check=True, stdout=subprocess.DEVNULL)


def pin_control_plane():
    """The control plane's processes (those with pid files in $PEER/run) on CP_CPUS, the extenders on EXT_CPUS."""
    run = os.path.join(PEER, 'run')
    for name in os.listdir(run):
        if name.endswith('.pid'):
            try:
                pin(int(open(os.path.join(run, name)).read()), CP_CPUS)
            except (ValueError, subprocess.CalledProcessError):
                pass
    for pid in (MR_PID, FLOOR_PID):
        if pid:
            pin(pid, EXT_CPUS)


def makeroom_allocated_bytes():
    """makeroom's heap allocation so far, as jstat sees it: young collections × eden capacity + eden used."""
    if not MR_PID:
        return None
    out = subprocess.run(['jstat', '-gc', MR_PID], capture_output=True, text=True).stdout.split('\n')
    head, values = out[0].split(), out[1].split()
    row = dict(zip(head, values))
    return (float(row['YGC']) * float(row['EC']) + float(row['EU'])) * 1024


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


def one_run(side):
    make_pods()
    before = makeroom_times()
    url = {'alone': None, 'floor': FLOOR, 'makeroom': MR}[side]
    # the client's default 50 QPS would measure its rate limiter, not scheduling
    control_plane.start_scheduler(url, verbs=WIRING, ignorable=True, qps=5000, verbosity='1',
                                  name='throughput')
    if PIN:
        pin_control_plane()
    samples, t0, cpu, alloc = [], time.time(), [makeroom_cpu_seconds()], [makeroom_allocated_bytes()]
    while time.time() - t0 < 600:
        n = scheduled()
        if n is not None:
            samples.append((time.time(), n))
            if n > 0 and len(cpu) == 1:
                cpu.append(makeroom_cpu_seconds())  # from the first pod scheduled
                alloc.append(makeroom_allocated_bytes())
            if n >= PODS:
                cpu.append(makeroom_cpu_seconds())
                alloc.append(makeroom_allocated_bytes())
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
    if alloc[0] is not None and len(alloc) == 3:
        extra['makeroom_kb_allocated_per_pod'] = round((alloc[2] - alloc[1]) / 1024 / max(1, PODS - 1), 1)
    if side != 'makeroom':
        own, calls = {}, {}
    return {**extra, 'side': side, 'verbs': ','.join(WIRING) if url else '', 'pods_per_second': round(rate, 1),
            'seconds': round(last - first, 2), 'makeroom_mean_ms': own, 'makeroom_calls': calls}


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
        for side in SIDES:
            res = one_run(side)
            log(json.dumps(res))
            results.append(res)
    json.dump(results, open(os.environ.get('OUT', '.') + '/throughput-%s.json' % os.path.basename(PEER), 'w'), indent=1)
    rates = {side: [r['pods_per_second'] for r in results if r['side'] == side] for side in SIDES}
    log('SUMMARY ' + ', '.join('%s %s pods/s' % (side, rates[side]) for side in SIDES)
        + ' (verbs %s, pinned %s)' % (','.join(WIRING), PIN))


if __name__ == '__main__':
    main()
