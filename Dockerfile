# syntax=docker/dockerfile:1
# Multi-stage: a static binary on a distroless base, running as a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/finbot .

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/finbot /finbot
USER nonroot:nonroot
EXPOSE 9090 8443
ENTRYPOINT ["/finbot"]
CMD ["serve"]
