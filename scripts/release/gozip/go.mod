module pulumi-svc/scripts/release/gozip

go 1.20

require golang.org/x/mod v0.19.0
