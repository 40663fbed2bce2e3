#!/usr/bin/env bash
# The server converts crew recordings (WebM/Opus, MP4 with Opus) into what the hospital plays (MP4 with
# H.264 + AAC, MP3) with Debian's ffmpeg, and the media tests probe the results with ffprobe. Install
# it when it is missing.
set -euo pipefail
if command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1; then exit 0; fi
echo "inbound: installing Debian ffmpeg for media conversion"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq ffmpeg >/dev/null
