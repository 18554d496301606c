/** The package's token prefix on the plugin face: resources `svc:index:<Kind>`, invokes `svc:index:<lookup>`. */
export const TOKEN_PREFIX = "svc:index:";
