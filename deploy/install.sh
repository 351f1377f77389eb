#!/usr/bin/env bash
# Quizbox installer for Raspberry Pi OS (Bookworm). Run it from the Quizbox folder:
#
#     sudo ./deploy/install.sh                  the box: broker, game, TV board, admin page
#     sudo ./deploy/install.sh --handset        a Pi Zero handset
#
# Re-running it upgrades in place: the code, the units and the broker settings are replaced; your
# settings (/etc/quizbox/quizbox.toml) and the games and decks in /var/lib/quizbox are kept.
#
# For tests and image builds: QUIZBOX_ROOT=/tmp/x (or --root /tmp/x) puts every file under that
# folder, and --dry-run (implied by a root) prints the commands that change the running system
# (apt-get, useradd, chown, pip, systemctl) instead of running them; --build with a root really makes
# the venv and installs the code there (as the calling user, pygame from its wheel), so a test can
# start `quizbox run` from what was installed.
set -euo pipefail

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --handset          install the Pi Zero handset instead of the box
  --box-id ID        the box's id on a first install (default: quizbox); handsets find <ID>.local
                     (with --handset: the box this handset belongs to)
  --box-name NAME    the name on the TV on a first install (default: Quizbox)
  --root DIR         install under DIR (same as QUIZBOX_ROOT=DIR); implies --dry-run
  --dry-run          print system-changing commands instead of running them
  --build            with --root: really build the venv under the root
  -h, --help         this text
EOF
}

ARGS=("$@")
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${QUIZBOX_ROOT:-}
DRY_RUN=0
BUILD=0
MODE=box
BOX_ID=quizbox
BOX_NAME=Quizbox

while [ $# -gt 0 ]; do
    case "$1" in
        --handset) MODE=handset ;;
        --box-id) BOX_ID=${2:?--box-id needs a value}; shift ;;
        --box-name) BOX_NAME=${2:?--box-name needs a value}; shift ;;
        --root) ROOT=${2:?--root needs a folder}; shift ;;
        --dry-run) DRY_RUN=1 ;;
        --build) BUILD=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

ROOT=${ROOT%/}
if [ -n "$ROOT" ]; then
    DRY_RUN=1
    mkdir -p "$ROOT"
    ROOT=$(cd "$ROOT" && pwd)
fi

APP_USER=quizbox
OPT=/opt/quizbox
VENV=$OPT/venv
ETC=/etc/quizbox
DATA=/var/lib/quizbox
UNITS=/etc/systemd/system

say() { printf 'install: %s\n' "$*"; }
die() { printf 'install: %s\n' "$*" >&2; exit 1; }

# A path on the target system (under the root in a test).
at() { printf '%s%s' "$ROOT" "$1"; }

# Run a command that changes the running system, or print it in a dry run.
# In a dry run, QUIZBOX_DRY_RUN_FAIL (a whole command) makes that command fail, to rehearse what the
# installer does when, say, a unit does not start.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf 'would run:'
        printf ' %q' "$@"
        printf '\n'
        if [ -n "${QUIZBOX_DRY_RUN_FAIL:-}" ] && [ "$*" = "${QUIZBOX_DRY_RUN_FAIL}" ]; then
            return 1
        fi
    else
        "$@"
    fi
}

# -- preflight -----------------------------------------------------------------------------------------
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run me as root: sudo $0 ${ARGS[*]}"
fi
command -v python3 >/dev/null || die "python3 is missing (Raspberry Pi OS always has it: is this the right system?)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Quizbox needs Python 3.11 or newer (Raspberry Pi OS Bookworm has it; older releases do not)"
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [ "$codename" = bookworm ] || say "warning: made for Raspberry Pi OS Bookworm, this is '${codename:-unknown}'"
fi
say "installing the Quizbox $MODE from $SRC${ROOT:+ under $ROOT}$([ "$DRY_RUN" = 1 ] && echo ' (dry run)')"

# -- packages ------------------------------------------------------------------------------------------
packages=(python3-venv python3-dev build-essential pkg-config fonts-dejavu-core)
if [ "$MODE" = box ]; then
    # mosquitto is the broker; pygame is built against the system's SDL 2 because the pygame wheels
    # on PyPI have no kmsdrm driver, and without it the board cannot draw on a TV without a desktop.
    # nftables: the per-address connection limits (deploy/limits.nft).
    packages+=(mosquitto mosquitto-clients nftables libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev
               libsdl2-mixer-dev libfreetype-dev libportmidi-dev libjpeg-dev)
    groups=(gpio video input render audio)
else
    packages+=(libjpeg-dev zlib1g-dev libfreetype-dev libopenjp2-7)
    groups=(gpio spi i2c input)
fi
# gpiozero's backend on Bookworm: packaged by Raspberry Pi OS only, seen through the venv's system
# site-packages.
if [ "$DRY_RUN" = 1 ] || apt-cache show python3-lgpio >/dev/null 2>&1; then
    packages+=(python3-lgpio)
fi
export DEBIAN_FRONTEND=noninteractive
run apt-get update -q
run apt-get install -y -q --no-install-recommends "${packages[@]}"

# -- the service user ----------------------------------------------------------------------------------
for group in "${groups[@]}"; do
    run groupadd --system -f "$group"  # -f: fine if it exists (Raspberry Pi OS has them all)
done
if [ "$DRY_RUN" = 1 ] || ! id "$APP_USER" >/dev/null 2>&1; then
    # its own group: made with it, or taken over when an earlier attempt left the group behind
    if [ "$DRY_RUN" = 0 ] && getent group "$APP_USER" >/dev/null; then
        own_group=(--gid "$APP_USER")
    else
        own_group=(--user-group)
    fi
    run useradd --system "${own_group[@]}" --home-dir "$DATA" --no-create-home \
        --shell /usr/sbin/nologin --comment "Quizbox" "$APP_USER"
fi
run usermod --append --groups "$(IFS=,; echo "${groups[*]}")" "$APP_USER"

# -- folders -------------------------------------------------------------------------------------------
install -d -m 0755 "$(at "$OPT")" "$(at "$ETC")" "$(at "$UNITS")" "$(at /usr/local/bin)"
install -d -m 0750 "$(at "$DATA")"
run chown "$APP_USER:$APP_USER" "$(at "$DATA")"

# -- code: a venv that also sees the system's python3-lgpio --------------------------------------------
# Built by the service user from a copy of the checkout, so the owner's checkout gets no root-owned
# build/, *.egg-info or __pycache__ (python3 -B below, for the same reason).
as_app() {
    if [ "$BUILD" = 1 ] && [ -n "$ROOT" ]; then
        "$@"  # a test's build under its root: the calling user, who owns the root
    else
        run runuser -u "$APP_USER" -- env HOME="$DATA" PIP_CACHE_DIR="$DATA/.cache/pip" "$@"
    fi
}
pygame_source=(--no-binary pygame)
if [ "$BUILD" = 1 ] && [ -n "$ROOT" ]; then
    pygame_source=()  # kmsdrm matters on the Pi's TV only; a test build takes the wheel
fi
run install -d -o "$APP_USER" -g "$APP_USER" -m 0755 "$(at "$OPT")"
if [ ! -x "$(at "$VENV")/bin/python" ]; then
    as_app python3 -m venv --system-site-packages "$(at "$VENV")"
fi
run chown -R "$APP_USER:$APP_USER" "$(at "$VENV")"  # a venv an older installer made as root
STAGE=$(at "$OPT/src")
rm -rf "$STAGE"
install -d -m 0755 "$STAGE"
tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=.pytest_cache --exclude=.mypy_cache -cf - . | tar -C "$STAGE" -xf -
run chown -R "$APP_USER:$APP_USER" "$STAGE"
if [ "$BUILD" = 0 ] || [ -z "$ROOT" ]; then
    as_app "$(at "$VENV")/bin/pip" install --quiet --upgrade pip
fi
if [ "$MODE" = box ]; then
    as_app "$(at "$VENV")/bin/pip" install --upgrade "${pygame_source[@]}" "$STAGE"
else
    as_app "$(at "$VENV")/bin/pip" install --upgrade "${STAGE}[pizero]"
fi
ln -sfn "$VENV/bin/quizbox" "$(at /usr/local/bin/quizbox)"

# -- units, broker settings, config --------------------------------------------------------------------
if [ "$MODE" = box ]; then
    # quizbox-league-join.path/.service: the admin page's "Join a league" form asks, root joins (docs/league.md)
    for unit in quizbox.service quizbox-web.service quizbox-limits.service \
        quizbox-league-join.path quizbox-league-join.service; do
        install -m 0644 "$SRC/systemd/$unit" "$(at "$UNITS/$unit")"
    done
    # One guest on the Wi-Fi may not hold every connection: the broker's open files raised (a drop-in
    # for Debian's own unit), and an nftables table of the box's own bounding connections per address
    # to the broker and the admin page, loaded at every boot by quizbox-limits.service (docs/security.md)
    install -d -m 0755 "$(at "$UNITS/mosquitto.service.d")"
    install -m 0644 "$SRC/systemd/mosquitto.service.d/quizbox-limits.conf" \
        "$(at "$UNITS/mosquitto.service.d/quizbox-limits.conf")"
    install -m 0644 "$SRC/deploy/limits.nft" "$(at "$ETC/limits.nft")"
    if [ "$DRY_RUN" = 0 ] && ! nft -c -f "$ETC/limits.nft"; then
        # the why, not a verdict: quizbox-limits.service fails to start on it, and the end says what that means
        say "this kernel refuses $ETC/limits.nft (nft's words above)"
    fi
    # before the broker kept its accounts itself: a path unit had it re-read files pairing rewrote
    for old in quizbox-mosquitto-reload.path quizbox-mosquitto-reload.service; do
        if [ -e "$(at "$UNITS/$old")" ]; then
            run systemctl disable --now "$old" || true
            rm -f "$(at "$UNITS/$old")"
        fi
    done
    install -d -m 0755 "$(at /etc/mosquitto/conf.d)"
    install -d -m 0755 "$(at /var/lib/mosquitto)"
    main_conf=$(at /etc/mosquitto/mosquitto.conf)
    if [ -f "$main_conf" ] && ! grep -Eq '^persistence_location /var/lib/mosquitto/?$' "$main_conf"; then
        say "warning: $main_conf does not keep mosquitto's data in /var/lib/mosquitto/ as Debian's does;"
        say "         retained board state may not survive a restart of the broker"
    fi
    # the configs, the broker's drop-in and its accounts (made once; an old password file is migrated)
    python3 -B "$SRC/deploy/configure.py" --root "${ROOT:-/}" --box-id "$BOX_ID" --box-name "$BOX_NAME"
    rmdir "$(at "$ETC/mosquitto")" 2>/dev/null || true  # the old password file's folder, now empty
    # Passwords: the configs for the quizbox user; the accounts for mosquitto, which changes them
    run chown "root:$APP_USER" "$(at "$ETC/quizbox.toml")" "$(at "$ETC/web.toml")"
    run chown mosquitto:mosquitto "$(at /var/lib/mosquitto/dynamic-security.json)"
    enable=(quizbox-limits.service mosquitto.service quizbox.service quizbox-web.service quizbox-league-join.path)
    restart=(quizbox-limits.service mosquitto.service)
    after_broker=(quizbox.service quizbox-web.service quizbox-league-join.path)
else
    install -m 0644 "$SRC/systemd/quizbox-handset.service" "$(at "$UNITS/quizbox-handset.service")"
    python3 -B "$SRC/deploy/configure.py" --handset --root "${ROOT:-/}" --box-id "$BOX_ID"
    run chown "root:$APP_USER" "$(at "$ETC/handset.json")"
    # the OLED is on I2C, the battery's ADC on SPI
    if [ "$DRY_RUN" = 1 ] || command -v raspi-config >/dev/null; then
        run raspi-config nonint do_i2c 0
        run raspi-config nonint do_spi 0
    fi
    # the OLED at 400 kHz: a frame in about 25 ms instead of 90 ms (docs/hardware.md), from the next boot
    boot=$(at /boot/firmware/config.txt)
    if [ -f "$boot" ] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$boot"; then
        say "I2C at 400 kHz for the OLED from the next boot ($boot)"
        printf 'dtparam=i2c_arm_baudrate=400000\n' >>"$boot"
    fi
    enable=(quizbox-handset.service)
    restart=(quizbox-handset.service)
    after_broker=()
fi

# -- start on power-up ---------------------------------------------------------------------------------
if [ "$MODE" = box ]; then
    # The board needs the screen without a desktop: boot to the console (a desktop can still be
    # started by hand with `sudo systemctl start lightdm`).
    if [ "$DRY_RUN" = 1 ] || [ "$(systemctl get-default 2>/dev/null)" = graphical.target ]; then
        say "the box boots to the console from now on, so the quiz board can have the screen"
        run systemctl set-default multi-user.target
    fi
fi
# A unit that fails to start is reported at the end with what to do; the install goes on (the other
# units, the admin address) instead of stopping half-way.
failed=()
problems=0  # what failed that is not a unit (the broker's accounts)
start_units() {
    local unit
    for unit in "$@"; do
        run systemctl restart "$unit" || failed+=("$unit")
    done
}
run systemctl daemon-reload
run systemctl enable "${enable[@]}" || say "warning: systemctl enable ${enable[*]} failed"
start_units "${restart[@]}"
if [ "$MODE" = box ]; then
    # the broker runs: give every account its rights and passwords (the appliance repeats it at start)
    if ! run "$(at "$VENV")/bin/python" -B "$SRC/deploy/configure.py" --root "${ROOT:-/}" --sync-accounts; then
        say "FAILED: the broker's accounts were not set up (is mosquitto running? see above);"
        say "        after a fix: sudo $VENV/bin/python -B $SRC/deploy/configure.py --sync-accounts"
        problems=$((problems + 1))
    fi
fi
start_units "${after_broker[@]}"

if [ "${#failed[@]}" -gt 0 ]; then
    # the same sentence `quizbox doctor` says for a unit that is not running (appliance/box/units.py)
    python3 -B "$SRC/appliance/box/units.py" failed "${failed[@]}" | sed 's/^/install: /'
fi
if [ "${#failed[@]}" -gt 0 ] || [ "$problems" -gt 0 ]; then
    say "then fix it and run this installer again (your settings and games are kept)"
fi

if [ "$MODE" = box ]; then
    box=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["box"]["id"])' \
        "$(at "$ETC/quizbox.toml")")
    host=$(printf '%s' "$box" | tr '_A-Z' '-a-z')
    say "done. The admin page is http://$host.local/ ; check the box with: sudo quizbox doctor"
else
    say "done. Settings for this handset: $ETC/handset.json ; logs: journalctl -u quizbox-handset"
fi
# the exit status: 0 when every unit it installed runs (the connection limits too) and the broker's accounts
# are set up; 1 otherwise (docs/deploy.md)
[ "${#failed[@]}" -eq 0 ] && [ "$problems" -eq 0 ]
