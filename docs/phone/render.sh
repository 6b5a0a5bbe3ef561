#!/usr/bin/env bash
# Draws bot/testdata/phone/*.golden (TestPhoneShapes: answers as the bot sends them, lines
# wrapped at a 360-pixel phone's 40 characters) as 360-pixel-wide PNGs beside this script.
# Needs ImageMagick (apt-get install imagemagick); a monospace font stands in for Telegram's.
set -euo pipefail
cd "$(dirname "$0")"
for f in ../../bot/testdata/phone/*.golden; do
  k=$(basename "$f" .golden)
  text=$(tail -n +5 "$f")
  /usr/bin/convert -background white -fill '#111' -font DejaVu-Sans-Mono -pointsize 13 -border 12 \
    -bordercolor white label:"$text" -resize '360x>' "$k.png" || echo "render.sh: $k not drawn" >&2
done
