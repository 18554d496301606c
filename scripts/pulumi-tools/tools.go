//go:build tools

// Package tools pins the Pulumi CLI and the Node.js language host that pulumi-svc's demo and
// end-to-end tests run. scripts/ensure-pulumi.sh builds both from this module.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
	_ "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
)
