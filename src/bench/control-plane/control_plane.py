"""What every script here does to the control plane in $PEER: (re)start its kube-scheduler with makeroom
registered as an extender, or without, and stop it."""
import os, subprocess, time

PEER = os.environ['PEER']


def stop_scheduler():
    pidf = os.path.join(PEER, 'run', 'kube-scheduler.pid')
    if os.path.exists(pidf):
        try:
            os.kill(int(open(pidf).read()), 15)
            time.sleep(2)
        except (ProcessLookupError, ValueError):
            pass
        os.unlink(pidf)


def start_scheduler(extender_url=None, verbs=('filter', 'prioritize', 'preempt'), node_cache_capable=True,
                    ignorable=False, qps=None, verbosity='4', name='makeroom', scoring=None):
    """Stops a running scheduler and starts one whose configuration registers makeroom at extender_url
    for `verbs` (none: the scheduler alone); qps raises the client's rate limit (default 50); scoring
    names NodeResourcesFit's scoring strategy (e.g. MostAllocated; None: the scheduler's default)."""
    stop_scheduler()
    cfg = os.path.join(PEER, 'run', 'scheduler-%s.yaml' % name)
    text = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: %s
""" % os.path.join(PEER, 'pki', 'scheduler.kubeconfig')
    if qps:
        text += "  qps: %d\n  burst: %d\n" % (qps, qps)
    text += "leaderElection:\n  leaderElect: false\n"
    if scoring:
        text += """profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: %s
        resources:
        - {name: cpu, weight: 1}
        - {name: memory, weight: 1}
""" % scoring
    if extender_url:
        text += """extenders:
- urlPrefix: %s
  weight: 1
  nodeCacheCapable: %s
  ignorable: %s
  httpTimeout: 5s
""" % (extender_url, 'true' if node_cache_capable else 'false', 'true' if ignorable else 'false')
        text += ''.join('  %sVerb: %s\n' % (verb, verb) for verb in verbs)
    open(cfg, 'w').write(text)
    env = dict(os.environ, SCHED_CONFIG=cfg, WAIT='1', V=os.environ.get('SCHED_V', verbosity))
    subprocess.run([os.path.join(PEER, 'start-scheduler.sh')], env=env, check=True, stdout=subprocess.DEVNULL)
