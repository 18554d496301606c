module github.com/pulumi-svc/pulumi-svc/sdk/go

go 1.20

require github.com/pulumi/pulumi/sdk/v3 v3.30.0
