//go:build tools

// Package tools pins the newest Pulumi CLI the suite runs (pkg/v3 v3.274.1).
// scripts/ensure-pulumi.sh builds it from this module; its language hosts come from elsewhere
// (the top of that script says where and why).
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)
