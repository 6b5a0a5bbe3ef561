#!/usr/bin/env bash
# Draws bot/testdata/phone/*.golden (TestPhoneShapes: answers as the bot sends them, lines
# wrapped at a 360-pixel phone's 40 characters) as 360-pixel-wide PNGs beside this script.
# Needs ImageMagick (apt-get install imagemagick); a monospace font stands in for Telegram's.
# ImageMagick's label refuses some long texts («width or height exceeds limit»): each answer is
# drawn 20 lines at a time and the pieces stacked.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in ../../bot/testdata/phone/*.golden; do
  k=$(basename "$f" .golden)
  tail -n +5 "$f" | split -l 20 - "$tmp/$k."
  parts=()
  for p in "$tmp/$k".*; do
    text=$(cat "$p")
    /usr/bin/convert -background white -fill '#111' -font DejaVu-Sans-Mono -pointsize 13 \
      label:"${text:- }" "$p.png"
    parts+=("$p.png")
  done
  /usr/bin/convert "${parts[@]}" -gravity west -background white -append -bordercolor white -border 12 -resize '360x>' "$k.png" ||
    echo "render.sh: $k not drawn" >&2
done
