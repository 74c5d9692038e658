"""Whether the scheduler scores the nodes an extender's filter returns as Node objects as if they were empty:
mr-a holds a 1.5-cpu pod, mr-b nothing; ten 100m probes, one at a time, with makeroom registered for filter
only, in names mode and then objects mode. A scheduler that sees the pods puts every probe on mr-b."""
import os, sys, time
PEER = os.environ['PEER']; sys.path.insert(0, PEER); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi
import control_plane
from preempt_rounds import pod, pc, NS
def sched(cache):
    control_plane.start_scheduler('http://127.0.0.1:18136/scheduler', verbs=('filter',), node_cache_capable=cache == 'true',
                                  name='objects')


base = '/api/v1/namespaces/%s/pods' % NS
kapi.ensure_namespace(NS); pc('mr-low', 100)
for mode in ('true', 'false'):
    sched(mode)
    kapi.req('POST', base, pod('busy', '1500m', 'mr-low', 'mr-a'))
    kapi.wait_for(lambda: kapi.req('GET', base + '/busy')['spec'].get('nodeName'), timeout=30, what='busy bound')
    where = []
    for i in range(10):
        kapi.req('POST', base, pod('probe', '100m', 'mr-low'))
        kapi.wait_for(lambda: kapi.req('GET', base + '/probe')['spec'].get('nodeName'), timeout=30, what='probe')
        where.append(kapi.req('GET', base + '/probe')['spec']['nodeName'])
        kapi.req('DELETE', base + '/probe?gracePeriodSeconds=0')
        kapi.wait_for(lambda: kapi.req('GET', base + '/probe', ok404=True) is None, timeout=30, what='gone')
    print('nodeCacheCapable', mode, 'probe placed on', {n: where.count(n) for n in set(where)}, flush=True)
    kapi.req('DELETE', base + '/busy?gracePeriodSeconds=0'); time.sleep(2)
