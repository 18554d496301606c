// Pulumi resources for the svc infrastructure-hosting API: dynamic resources for TypeScript, a provider plugin for YAML and other languages, and a spec-faithful local emulator
package svc
