#!/usr/bin/env bash
# slurm-local.sh: a one-node Slurm cluster on this machine, for tests of
# the batch scripts that `replay sweep --emit slurm` writes.
#
#   scripts/slurm-local.sh [start]   install (Debian's slurm-wlm and munge, if
#                                    missing), configure and start; wait until
#                                    the node is idle. A second call finds the
#                                    cluster up and returns at once.
#   scripts/slurm-local.sh stop      stop slurmd, slurmctld and munged (the
#                                    daemons this script started, by pid file)
#   scripts/slurm-local.sh status    sinfo, or exit 1 when the cluster is down
#
# Root only. Daemons are started directly (no systemd), so it works in a
# container. The node is $(hostname -s) with nproc CPUs; SlurmUser is
# root; no accounting; the daemons are reached at 127.0.0.1 (the node's name
# need not resolve). SLURM_LOCAL_TIMEOUT (seconds, default 60) bounds the
# wait for the node. It refuses to overwrite a slurm.conf it did not write.
set -euo pipefail

conf=/etc/slurm/slurm.conf
marker="# written by schedlab scripts/slurm-local.sh"
logs=/var/log/slurm
ctld_pid=/run/slurmctld.pid
slurmd_pid=/run/slurmd.pid
munge_pid=/run/munge/munged.pid
munge_key=/etc/munge/munge.key
timeout=${SLURM_LOCAL_TIMEOUT:-60}
node=$(hostname -s 2>/dev/null || hostname)

say() { echo "slurm-local: $*" >&2; }
die() { say "$*"; exit 1; }

# alive PIDFILE: the process named in PIDFILE runs.
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# node_state: the node's state as sinfo reports it; "" when slurmctld is not
# running (sinfo would retry for MessageTimeout first) or does not answer.
node_state() {
	alive "$ctld_pid" || return 0
	timeout 15 sinfo -h -n "$node" -o %T 2>/dev/null | head -n 1 || true
}

show_logs() {
	for f in "$logs/slurmctld.log" "$logs/slurmd.log" /var/log/munge/munged.log; do
		[ -f "$f" ] || continue
		echo "---- last lines of $f" >&2
		tail -n 30 "$f" >&2
	done
}

install() {
	if command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
		command -v sbatch >/dev/null && command -v munged >/dev/null; then
		return
	fi
	command -v apt-get >/dev/null || die "slurm-wlm is not installed and there is no apt-get"
	say "installing slurm-wlm and munge"
	# Keep the packages' maintainer scripts from starting services: there is
	# no init system to start them, and this script starts them itself.
	local policy=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		policy=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod 0755 "$policy"
		trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null
	if [ -n "$policy" ]; then
		rm -f "$policy"
		trap - EXIT
	fi
}

start_munge() {
	if [ ! -s "$munge_key" ]; then
		say "creating $munge_key"
		mkdir -p "$(dirname "$munge_key")"
		if command -v mungekey >/dev/null; then
			mungekey --create --keyfile="$munge_key"
		else
			dd if=/dev/urandom of="$munge_key" bs=1024 count=1 status=none
		fi
	fi
	chown munge:munge "$munge_key"
	chmod 0400 "$munge_key"
	mkdir -p /run/munge /var/log/munge /var/lib/munge
	chown munge:munge /run/munge /var/log/munge /var/lib/munge
	chmod 0755 /run/munge
	if alive "$munge_pid" && munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
		return
	fi
	say "starting munged"
	runuser -u munge -- /usr/sbin/munged --force
	for _ in $(seq 50); do
		munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return
		sleep 0.1
	done
	show_logs
	die "munged does not answer"
}

write_conf() {
	if [ -f "$conf" ] && ! grep -qF "$marker" "$conf"; then
		die "$conf exists and was not written by this script: not touching it"
	fi
	local cpus mem
	cpus=$(nproc)
	# RealMemory in MiB as slurmd measures it, else from /proc/meminfo.
	mem=$(slurmd -C 2>/dev/null | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$mem" ] || mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
	mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$logs"
	local tmp="$conf.tmp.$$"
	cat >"$tmp" <<EOF
$marker
ClusterName=local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$ctld_pid
SlurmdPidFile=$slurmd_pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	mv "$tmp" "$conf"
}

stop_pid() { # NAME PIDFILE
	alive "$2" || { rm -f "$2"; return 0; }
	local pid
	pid=$(cat "$2")
	say "stopping $1 ($pid)"
	kill "$pid"
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || { rm -f "$2"; return 0; }
		sleep 0.1
	done
	die "$1 ($pid) did not stop"
}

start() {
	[ "$(id -u)" = 0 ] || die "must run as root"
	install
	case $(node_state) in
	idle | mixed | allocated | completing)
		if alive "$ctld_pid" && alive "$slurmd_pid" && munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
			say "already up: node $node $(node_state)"
			return
		fi
		;;
	esac
	start_munge
	# Restart whatever part of this script's cluster still runs, with the
	# configuration written anew.
	stop_pid slurmd "$slurmd_pid"
	stop_pid slurmctld "$ctld_pid"
	write_conf
	local deadline=$((SECONDS + timeout)) state=""
	slurmctld || { show_logs; die "slurmctld failed to start"; }
	# slurmd registers once at start and retries only after a while: start
	# it when slurmctld answers.
	until scontrol ping 2>/dev/null | grep -q 'is UP'; do
		[ "$SECONDS" -lt "$deadline" ] || { show_logs; die "slurmctld does not answer after ${timeout}s"; }
		sleep 0.2
	done
	slurmd || { show_logs; die "slurmd failed to start"; }
	while [ "$SECONDS" -lt "$deadline" ]; do
		state=$(node_state)
		case $state in
		idle)
			say "up: node $node idle"
			return
			;;
		drain* | down*)
			# Left over from an earlier run's saved state.
			scontrol update nodename="$node" state=resume 2>/dev/null || true
			;;
		esac
		sleep 0.5
	done
	show_logs
	die "node $node not idle after ${timeout}s (state: ${state:-slurmctld does not answer})"
}

stop() {
	[ "$(id -u)" = 0 ] || die "must run as root"
	stop_pid slurmd "$slurmd_pid"
	stop_pid slurmctld "$ctld_pid"
	stop_pid munged "$munge_pid"
}

case ${1:-start} in
start) start ;;
stop) stop ;;
status)
	if ! alive "$ctld_pid" || ! timeout 15 sinfo 2>/dev/null; then
		say "down"
		exit 1
	fi
	;;
*) die "usage: $0 [start|stop|status]" ;;
esac
