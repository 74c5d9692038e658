#!/usr/bin/env python3
"""Act only when ready (issue 81): four 4-cpu nodes, Deployments web and cache (4 x 1 cpu, one per node),
a 3-cpu pod 'report' that fits nowhere, pending before makeroom starts. Each round this script starts
makeroom itself (rescheduler on, evict mode, defragment only) beside a CPU hog (HOGS busy loops, so the
start is slow as on a loaded control-plane node), waits for report to bind, then stops makeroom.
Checks per round: no eviction in makeroom's log before its extender port listened and it reported
ready, and report bound on the node the room was made on. Env: PEER + ports (kapi), JAR, ROUNDS,
HOGS, GRACE, MR_PORT (extender port; management is MR_PORT+1)."""
import glob, json, os, re, signal, subprocess, sys, time
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
import control_plane
from fake_kubelet import FakeKubelet
from defragment_rounds import make_nodes, fill, clean, per_node, NS

HERE = os.path.dirname(os.path.abspath(__file__))
JAR = os.environ.get('JAR') or sorted(glob.glob(os.path.join(HERE, '../../../target/makeroom-*.jar')))[-1]
ROUNDS = int(os.environ.get('ROUNDS', '10'))
HOGS = int(os.environ.get('HOGS', '3'))
GRACE = float(os.environ.get('GRACE', '3'))
PORT = int(os.environ.get('MR_PORT', '18136'))

def log(*a): print(time.strftime('%H:%M:%S'), *a, flush=True)

def report():
    return {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'report'},
            'spec': {'terminationGracePeriodSeconds': 5, 'nodeSelector': {'df': 'true'},
                     'containers': [{'name': 'c', 'image': 'busybox',
                                     'resources': {'requests': {'cpu': '3', 'memory': '64Mi'}}}]}}

def start_makeroom(out):
    env = dict(os.environ, KUBECONFIG=os.path.join(PEER, 'pki/admin.kubeconfig'))
    return subprocess.Popen(['java', '-jar', JAR, '--makeroom.cluster.source=kubernetes',
                             '--server.port=%d' % PORT, '--management.server.port=%d' % (PORT + 1),
                             '--makeroom.cluster.config-map-namespace=makeroom-system',
                             '--makeroom.rescheduler.enabled=true', '--makeroom.rescheduler.mode=evict',
                             '--makeroom.rescheduler.interval=2s',
                             '--makeroom.rescheduler.file=' + os.path.join(HERE, 'defragment-only.yaml')],
                            stdout=out, stderr=subprocess.STDOUT, env=env)

def stamp(line):
    m = re.match(r'(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)', line)
    return m.group(1) if m else None

def read_log(path):
    lines = open(path).read().splitlines()
    listening = next((stamp(l) for l in lines if 'Tomcat started on port %d' % PORT in l), None)
    acting = next((stamp(l) for l in lines if 'rescheduler: acting:' in l), None)
    evicted = [(stamp(l), l) for l in lines if 'rescheduler: evicted' in l]
    rooms = [re.search(r'makes room for %s/report on (\S+?)\)' % NS, l).group(1) for (_, l) in evicted
             if re.search(r'makes room for %s/report on (\S+?)\)' % NS, l)]
    return listening, acting, evicted, rooms

def main():
    kapi.wait_ready()
    # ignorable, as the chart registers it: pods schedule while makeroom is down (it starts each round)
    control_plane.start_scheduler('http://127.0.0.1:%d/scheduler' % PORT, ignorable=True)
    make_nodes()
    kapi.ensure_namespace('makeroom-system')
    kubelet = FakeKubelet([NS], grace=GRACE).start()
    summary = []
    for r in range(ROUNDS):
        fill()
        before = per_node()
        kapi.req('POST', '/api/v1/namespaces/%s/pods' % NS, report())
        time.sleep(6)  # pending longer than defragment's 'after' when makeroom starts
        path = os.path.join(os.environ.get('OUT', '.'), 'restart-%d.log' % r)
        hogs = [subprocess.Popen(['sh', '-c', 'while :; do :; done']) for _ in range(HOGS)]
        with open(path, 'w') as out:
            mr = start_makeroom(out)
            t0 = time.time()
            bound = None
            while time.time() - t0 < 150:
                bound = kapi.req('GET', '/api/v1/namespaces/%s/pods/report' % NS)['spec'].get('nodeName')
                if bound:
                    break
                time.sleep(0.5)
            took = round(time.time() - t0, 1)
            for h in hogs:
                h.kill()
            mr.send_signal(signal.SIGTERM)
            mr.wait(30)
        listening, acting, evicted, rooms = read_log(path)
        early = [l for (t, l) in evicted if listening is None or acting is None or t < listening or t < acting]
        ok = bool(bound) and not early and rooms and all(n == bound for n in rooms)
        log('round %d: bound %s after %s s; port listening %s, acting %s, evictions %d (%d early), room on %s: %s' % (
            r, bound, took, listening, acting, len(evicted), len(early), sorted(set(rooms)), 'OK' if ok else 'WRONG'))
        summary.append({'round': r, 'before': before, 'bound': bound, 'seconds': took, 'listening': listening,
                        'acting': acting, 'evictions': len(evicted), 'early': len(early), 'rooms': rooms, 'ok': ok})
        clean()
        time.sleep(2)
    kubelet.stop()
    control_plane.stop_scheduler()
    json.dump(summary, open(os.path.join(os.environ.get('OUT', '.'), 'restart-%s.json' % os.path.basename(PEER)), 'w'),
              indent=1)
    log('SUMMARY %s: %d/%d rounds right (bound where the room was made, nothing evicted before serving)' % (
        PEER, sum(1 for s in summary if s['ok']), len(summary)))

if __name__ == '__main__':
    main()
