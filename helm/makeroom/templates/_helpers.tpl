{{/* the chart's name, or nameOverride */}}
{{- define "makeroom.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* the objects' names: fullnameOverride, else the release, with the chart's name unless it holds it */}}
{{- define "makeroom.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "makeroom.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "makeroom.labels" -}}
app.kubernetes.io/name: {{ include "makeroom.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* the kube-scheduler's image: repository and tag, or (as before) one string */}}
{{- define "makeroom.schedulerImage" -}}
{{- $image := .Values.scheduler.image -}}
{{- if kindIs "string" $image -}}
{{- $image -}}
{{- else -}}
{{- printf "%s:%s" $image.repository $image.tag -}}
{{- end -}}
{{- end -}}

{{- define "makeroom.selectorLabels" -}}
app.kubernetes.io/name: {{ include "makeroom.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: extender
{{- end -}}

{{- define "makeroom.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "makeroom.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "makeroom.managementServiceName" -}}
{{- printf "%s-management" (include "makeroom.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "makeroom.aggregatedServiceName" -}}
{{- printf "%s-api" (include "makeroom.fullname" .) | trunc 59 | trimSuffix "-" -}}
{{- end -}}

{{- define "makeroom.schedulerFullname" -}}
{{- printf "%s-scheduler" (include "makeroom.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "makeroom.schedulerSelectorLabels" -}}
app.kubernetes.io/name: {{ include "makeroom.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: scheduler
{{- end -}}

{{/* where the scheduler finds the CA that signed makeroom's certificate */}}
{{- define "makeroom.schedulerCaDir" -}}/etc/kubernetes/makeroom-ca{{- end -}}

{{/*
The verbs the scheduler calls, comma-separated: extender.verbs as listed, or with `auto` what the
features switched on need. preempt always; filter when makeroom holds room the scheduler must keep
(the rescheduler's landings and defragmentation holds, gang holds, queue max); prioritize when its
scores steer something (the rescheduler's avoid lists and landings, or shield scores asked for).
*/}}
{{- define "makeroom.extenderVerbs" -}}
{{- $v := .Values -}}
{{- if kindIs "slice" $v.extender.verbs -}}
{{- join "," $v.extender.verbs -}}
{{- else -}}
{{- $verbs := list -}}
{{- if (include "makeroom.filterNeededFor" .) -}}
{{- $verbs = append $verbs "filter" -}}
{{- end -}}
{{- if (include "makeroom.prioritizeNeededFor" .) -}}
{{- $verbs = append $verbs "prioritize" -}}
{{- end -}}
{{- join "," (append $verbs "preempt") -}}
{{- end -}}
{{- end -}}

{{/* why filter is registered with `auto` (empty: it is not needed) */}}
{{- define "makeroom.filterNeededFor" -}}
{{- $v := .Values -}}
{{- $why := list -}}
{{- if $v.rescheduler.enabled -}}{{- $why = append $why "rescheduler landings and defragmentation holds" -}}{{- end -}}
{{- if not (regexMatch "^0+(ns|us|µs|ms|s|m|h)?$" (toString $v.preemption.gangHold)) -}}{{- $why = append $why "gang holds" -}}{{- end -}}
{{- if or $v.queues.enabled $v.queues.create -}}{{- $why = append $why "queue max" -}}{{- end -}}
{{- join ", " $why -}}
{{- end -}}

{{/* why prioritize is registered with `auto` (empty: it is not needed) */}}
{{- define "makeroom.prioritizeNeededFor" -}}
{{- $v := .Values -}}
{{- $why := list -}}
{{- if $v.rescheduler.enabled -}}{{- $why = append $why "rescheduler avoid lists and landings" -}}{{- end -}}
{{- if $v.extender.shieldScores -}}{{- $why = append $why "shield scores" -}}{{- end -}}
{{- join ", " $why -}}
{{- end -}}

{{/* the extenders entry of a KubeSchedulerConfiguration: one definition for both wirings.
     Called with (dict "root" $ "ignorable" <bool>): the two wirings differ in what is safe there. */}}
{{- define "makeroom.extender" -}}
{{- $root := .root -}}
{{- /* the verbs' path prefix is makeroom.web.prefix, which extraConfig may set */ -}}
{{- /* a scheduler with hostNetwork cannot resolve Service names: extender.host, e.g. the Service's
       clusterIP (docs/wiring.md); TLS still checks the certificate against the Service's name */ -}}
{{- $host := default (printf "%s.%s.svc" (include "makeroom.fullname" $root) $root.Release.Namespace) $root.Values.extender.host }}
- urlPrefix: {{ printf "%s://%s:%v%s" (ternary "https" "http" $root.Values.tls.enabled) $host $root.Values.ports.extender (dig "makeroom" "web" "prefix" "/scheduler" $root.Values.extraConfig) }}
  {{- range splitList "," (include "makeroom.extenderVerbs" $root) }}
  {{ . }}Verb: {{ . }}
  {{- end }}
  weight: {{ $root.Values.extender.weight }}
  # makeroom keeps its own view: node names and victim UIDs are enough
  nodeCacheCapable: true
  httpTimeout: {{ $root.Values.extender.httpTimeout }}
  ignorable: {{ .ignorable }}
  enableHTTPS: {{ $root.Values.tls.enabled }}
  {{- if $root.Values.tls.enabled }}
  tlsConfig:
    serverName: {{ printf "%s.%s.svc" (include "makeroom.fullname" $root) $root.Release.Namespace }}
    caFile: {{ include "makeroom.schedulerCaDir" $root }}/ca.crt
  {{- end }}
{{- end -}}

{{/* every container: no root, no privilege, nothing written outside its emptyDirs */}}
{{- define "makeroom.containerSecurityContext" -}}
runAsNonRoot: true
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end -}}
