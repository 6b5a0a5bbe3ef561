# syntax=docker/dockerfile:1
# Multi-stage: a static binary (no cgo) on Debian slim with tesseract (Russian) and poppler's
# pdftoppm for photos and scans of documents, running as a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/finbot .

FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates tesseract-ocr tesseract-ocr-rus poppler-utils tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 65532 --home /nonexistent --shell /usr/sbin/nologin nonroot
COPY --from=build /out/finbot /finbot
USER 65532:65532
EXPOSE 9090 8443
ENTRYPOINT ["/finbot"]
CMD ["serve"]
