//go:build tools

// Package tools pins the Pulumi CLI and the language hosts (Node.js, YAML, Python, Go) that
// pulumi-svc's demo and end-to-end tests run. scripts/ensure-pulumi.sh builds them from this
// module.
package tools

import (
	_ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
	_ "github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3"
	_ "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
	_ "github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3"
)
