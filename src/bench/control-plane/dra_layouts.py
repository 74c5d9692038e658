#!/usr/bin/env python3
"""Devices (issue 78): does makeroom say where a pod's claims can be allocated exactly as the real
scheduler then does? NODES nodes with 4 devices each (ResourceSlices published here: no driver, no
kubelet), random per layout (SEED): models (strings), indexes (ints), driver versions (versions),
memory (quantities), a NUMA node, some nodes partitionable (a counter set their devices share). Holder
pods claim devices through templates; the real scheduler allocates and binds them. Then a probe claim
(selectors on strings, ints, quantities and versions, ExactCount or All, firstAvailable, matchAttribute
or distinctAttribute, cpu beside it): makeroom's `--why` (against this API) says on which nodes it fits;
the scheduler is asked per node (a probe pinned to each node by nodeSelector, its claim from a template)
and its answer is where each probe bound. Every layout must agree node by node.
Env: PEER + ports (kapi), JAR, LAYOUTS, NODES, SEED. Prints one line a layout and a SUMMARY."""
import json, os, random, re, subprocess, sys, time
PEER = os.environ['PEER']; sys.path.insert(0, PEER)
import kapi

HERE = os.path.dirname(os.path.abspath(__file__))
JAR = os.environ['JAR']
LAYOUTS = int(os.environ.get('LAYOUTS', '20'))
NODES = int(os.environ.get('NODES', '3'))
SEED = int(os.environ.get('SEED', '1'))
NS = 'dra'
DRIVER = 'gpu.example.com'
R = '/apis/resource.k8s.io/v1'

def log(*a): print(time.strftime('%H:%M:%S'), *a, flush=True)

def delete_all(path):
    for o in kapi.req('GET', path)['items']:
        m = o['metadata']
        p = path + '/' + m['name'] if 'namespace' not in m else '/%s/namespaces/%s/%s/%s' % (
            path.split('/namespaces')[0].strip('/'), m['namespace'], path.rsplit('/', 1)[1], m['name'])
        kapi.req('DELETE', p + '?gracePeriodSeconds=0', ok404=True)

def clean():
    for p in kapi.req('GET', '/api/v1/namespaces/%s/pods' % NS)['items']:
        kapi.req('DELETE', '/api/v1/namespaces/%s/pods/%s?gracePeriodSeconds=0' % (NS, p['metadata']['name']), ok404=True)
    kapi.wait_for(lambda: not kapi.req('GET', '/api/v1/namespaces/%s/pods' % NS)['items'], timeout=60, what='pods gone')
    for c in kapi.req('GET', R + '/namespaces/%s/resourceclaims' % NS)['items']:
        kapi.req('DELETE', R + '/namespaces/%s/resourceclaims/%s' % (NS, c['metadata']['name']), ok404=True)
    kapi.wait_for(lambda: not kapi.req('GET', R + '/namespaces/%s/resourceclaims' % NS)['items'], timeout=60,
                  what='claims gone')
    for t in kapi.req('GET', R + '/namespaces/%s/resourceclaimtemplates' % NS)['items']:
        kapi.req('DELETE', R + '/namespaces/%s/resourceclaimtemplates/%s' % (NS, t['metadata']['name']), ok404=True)
    for s in kapi.req('GET', R + '/resourceslices')['items']:
        kapi.req('DELETE', R + '/resourceslices/' + s['metadata']['name'], ok404=True)

def slices(rnd):
    for n in range(1, NODES + 1):
        node = 'dra-%d' % n
        partitioned = rnd.random() < 0.3
        devices = []
        for i in range(4):
            d = {'name': 'gpu-%d' % i, 'attributes': {
                'model': {'string': rnd.choice(['H100', 'A100'])}, 'index': {'int': i},
                'driverVersion': {'version': rnd.choice(['1.2.3', '1.10.0', '2.0.0-rc.1'])},
                'example.com/numa': {'int': i // 2}},
                'capacity': {'memory': {'value': rnd.choice(['40Gi', '80Gi'])}}}
            if partitioned:
                d['consumesCounters'] = [{'counterSet': 'shared', 'counters': {'slices': {'value': str(rnd.choice([1, 2, 3]))}}}]
            devices.append(d)
        pool = {'name': node, 'generation': 1, 'resourceSliceCount': 2 if partitioned else 1}
        kapi.req('POST', R + '/resourceslices', {'apiVersion': 'resource.k8s.io/v1', 'kind': 'ResourceSlice',
                 'metadata': {'name': node + '-gpus'}, 'spec': {'driver': DRIVER, 'nodeName': node, 'pool': pool,
                                                                 'devices': devices}})
        if partitioned:
            kapi.req('POST', R + '/resourceslices', {'apiVersion': 'resource.k8s.io/v1', 'kind': 'ResourceSlice',
                     'metadata': {'name': node + '-counters'}, 'spec': {'driver': DRIVER, 'nodeName': node, 'pool': pool,
                     'sharedCounters': [{'name': 'shared', 'counters': {'slices': {'value': '6'}}}]}})

SELECTORS = [
    'device.attributes["gpu.example.com"].model == "H100"',
    'device.attributes["gpu.example.com"].index >= 2',
    'device.capacity["gpu.example.com"].memory.compareTo(quantity("64Gi")) >= 0',
    'device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.3.0"))',
    'device.attributes["gpu.example.com"].model.startsWith("A")',
]

def exact(rnd, all_ok=True):
    e = {'deviceClassName': DRIVER}
    if all_ok and rnd.random() < 0.1:
        e['allocationMode'] = 'All'
    else:
        e['count'] = rnd.choice([1, 1, 2, 3])
    if rnd.random() < 0.6:
        e['selectors'] = [{'cel': {'expression': rnd.choice(SELECTORS)}}]
    return e

def claim_spec(rnd):
    if rnd.random() < 0.25:
        req = {'name': 'gpus', 'firstAvailable': [dict(exact(rnd, False), name='first'), dict(exact(rnd, False), name='second')]}
    else:
        req = {'name': 'gpus', 'exactly': exact(rnd)}
    spec = {'devices': {'requests': [req]}}
    k = rnd.random()
    if k < 0.2:
        spec['devices']['constraints'] = [{'matchAttribute': 'example.com/numa'}]
    elif k < 0.3:
        spec['devices']['constraints'] = [{'matchAttribute': 'gpu.example.com/model'}]
    elif k < 0.4:
        spec['devices']['constraints'] = [{'distinctAttribute': 'example.com/numa'}]
    return spec

def template(name, spec):
    kapi.req('POST', R + '/namespaces/%s/resourceclaimtemplates' % NS, {'apiVersion': 'resource.k8s.io/v1',
             'kind': 'ResourceClaimTemplate', 'metadata': {'name': name}, 'spec': {'spec': spec}})

def pod(name, cpu, claim, node=None, by_template=True):
    spec = {'terminationGracePeriodSeconds': 0,
            'resourceClaims': [{'name': 'gpus', ('resourceClaimTemplateName' if by_template else 'resourceClaimName'): claim}],
            'containers': [{'name': 'c', 'image': 'x', 'resources': {'requests': {'cpu': str(cpu)}, 'claims': [{'name': 'gpus'}]}}]}
    if node:
        spec['nodeSelector'] = {'kubernetes.io/hostname': node}
    return {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': name, 'namespace': NS}, 'spec': spec}

def settled(name):
    """'bound:<node>', 'unschedulable', or None while the scheduler has not decided."""
    p = kapi.req('GET', '/api/v1/namespaces/%s/pods/%s' % (NS, name), ok404=True)
    if p is None:
        return None
    if p['spec'].get('nodeName'):
        return 'bound:' + p['spec']['nodeName']
    for c in p.get('status', {}).get('conditions', []):
        if c['type'] == 'PodScheduled' and c['status'] == 'False' and c.get('reason') == 'Unschedulable':
            return 'unschedulable: ' + c.get('message', '')
        if c['type'] == 'PodScheduled' and c['status'] == 'False':  # e.g. SchedulerError: an error, not a verdict
            return 'error: %s: %s' % (c.get('reason'), c.get('message', ''))
    return None

def wait_settled(name, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        s = settled(name)
        if s:
            return s
        time.sleep(0.2)
    return 'undecided'

def makeroom_fits(probe_file):
    env = dict(os.environ, KUBECONFIG=os.path.join(PEER, 'pki/admin.kubeconfig'))
    out = subprocess.run(['java', '-jar', JAR, '--why=@' + probe_file], capture_output=True, text=True, env=env,
                         timeout=120).stdout
    m = re.search(r'fits without preemption on (.*)', out)
    fits = set(m.group(1).strip().split(', ')) if m else set()
    return fits, out

def main():
    kapi.wait_ready()
    for n in range(1, NODES + 1):
        if kapi.req('GET', '/api/v1/nodes/dra-%d' % n, ok404=True) is None:
            kapi.make_ready_node('dra-%d' % n, cpu='8', memory='32Gi', pods='110',
                                 labels={'kubernetes.io/hostname': 'dra-%d' % n})
    kapi.ensure_namespace(NS)
    if kapi.req('GET', R + '/deviceclasses/' + DRIVER, ok404=True) is None:
        kapi.req('POST', R + '/deviceclasses', {'apiVersion': 'resource.k8s.io/v1', 'kind': 'DeviceClass',
                 'metadata': {'name': DRIVER}, 'spec': {'selectors': [{'cel': {'expression': 'device.driver == "%s"' % DRIVER}}]}})
    rnd = random.Random(SEED)
    agreed = 0
    disagreements = []
    for layout in range(LAYOUTS):
        clean()
        slices(rnd)
        holders = rnd.randint(1, NODES * 2)
        for h in range(holders):
            template('holder-%d' % h, claim_spec(rnd))
            kapi.req('POST', '/api/v1/namespaces/%s/pods' % NS, pod('holder-%d' % h, rnd.choice([1, 2, 3]), 'holder-%d' % h))
        for h in range(holders):
            if not wait_settled('holder-%d' % h).startswith('bound'):
                kapi.req('DELETE', '/api/v1/namespaces/%s/pods/holder-%d?gracePeriodSeconds=0' % (NS, h), ok404=True)
        spec = claim_spec(rnd)
        cpu = rnd.choice([1, 2, 4, 6])
        kapi.req('POST', R + '/namespaces/%s/resourceclaims' % NS, {'apiVersion': 'resource.k8s.io/v1',
                 'kind': 'ResourceClaim', 'metadata': {'name': 'probe-asked'}, 'spec': spec})
        probe_file = os.path.join(os.environ.get('OUT', '.'), 'probe.json')
        json.dump(pod('probe', cpu, 'probe-asked', by_template=False), open(probe_file, 'w'))
        fits, said = makeroom_fits(probe_file)
        kapi.req('DELETE', R + '/namespaces/%s/resourceclaims/probe-asked' % NS, ok404=True)
        template('probe', spec)
        scheduler = set()
        answers = {}
        for n in range(1, NODES + 1):
            node = 'dra-%d' % n
            kapi.req('POST', '/api/v1/namespaces/%s/pods' % NS, pod('probe-' + node, cpu, 'probe', node=node))
            answers[node] = wait_settled('probe-' + node)
            if answers[node] == 'bound:' + node:
                scheduler.add(node)
            kapi.req('DELETE', '/api/v1/namespaces/%s/pods/probe-%s?gracePeriodSeconds=0' % (NS, node), ok404=True)
            kapi.wait_for(lambda: not [c for c in kapi.req('GET', R + '/namespaces/%s/resourceclaims' % NS)['items']
                                       if c['metadata']['name'].startswith('probe-' + node)], timeout=60,
                          what='the probe claim gone')
        errored = any(a.startswith('error') for a in answers.values())
        # where the scheduler errs (not a verdict), makeroom must say so rather than call the node refused
        ok = fits == scheduler and 'undecided' not in answers.values() and (
            not errored or 'the scheduler answers an error' in said)
        agreed += ok
        log('layout %d: %d holders; probe %s cpu %d; makeroom fits %s, scheduler %s: %s' % (
            layout, holders, json.dumps(spec['devices']), cpu, sorted(fits), sorted(scheduler), 'AGREE' if ok else 'DISAGREE'))
        if not ok:
            disagreements.append({'layout': layout, 'spec': spec, 'makeroom': said, 'scheduler': answers})
            log('  makeroom said:\n' + said)
            log('  scheduler: %s' % answers)
    clean()
    json.dump(disagreements, open(os.path.join(os.environ.get('OUT', '.'), 'dra-disagreements.json'), 'w'), indent=1)
    log('SUMMARY %s: %d/%d layouts agree node by node' % (PEER, agreed, LAYOUTS))

if __name__ == '__main__':
    main()
