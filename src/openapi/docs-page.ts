/** The control document's name in the page's selector; `?urls.primaryName=` opens the page on it. */
export const CONTROL_DOCUMENT_NAME = 'Sandbox control (/__sandbox)';
/** `/docs` opened on the control document: where the token page may send the browser back. */
export const CONTROL_DOCS_URL = `/docs?urls.primaryName=${encodeURIComponent(CONTROL_DOCUMENT_NAME)}`;

/**
 * The API reference page: Swagger UI from this sandbox's own `/docs/assets/` (nothing from a CDN, so it works with
 * no internet), showing both documents. `validatorUrl: null` keeps it from calling swagger.io's online validator.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Banking sandbox: API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  urls: [
    { url: '/openapi.json', name: 'Bank API (/api/v1)' },
    { url: '/__sandbox/openapi.json', name: ${JSON.stringify(CONTROL_DOCUMENT_NAME)} },
  ],
  dom_id: '#reference',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
  deepLinking: true,
  filter: true,
  persistAuthorization: true,
  displayRequestDuration: true,
});
</script>
</body>
</html>
`;
