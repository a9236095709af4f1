# Multi-stage build of the single binary that serves API and client.
FROM node:20 AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
# The rainfall map's gazetteer is read from the domain's data at build time.
COPY domain/rainfall/data/uk-places.csv domain/rainfall/data/uk-postcode-districts.csv /src/domain/rainfall/data/
RUN npm run build

FROM golang:1.26 AS go
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/web/dist ./web/dist
RUN CGO_ENABLED=0 go build -o /draindesign ./cmd/draindesign

FROM gcr.io/distroless/static
COPY --from=go /draindesign /draindesign
ENTRYPOINT ["/draindesign"]
