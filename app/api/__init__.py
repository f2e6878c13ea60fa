"""HTTP adapter: routers, request and response schemas, error mapping, the result cache."""
