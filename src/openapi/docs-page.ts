import { CONTROL_DOCS_URL, CONTROL_DOCUMENT_NAME, DASHBOARD_PATH } from '../contract/mounts.js';

// With `--control-token`, the control document answers 401 until the browser has the token's cookie (path
// /__sandbox, so Swagger UI's fetch of the document carries it): instead of Swagger's bare "Failed to load API
// definition", the page says what to do and links to the token page, which comes back here.
const TOKEN_LINK = `${DASHBOARD_PATH}?next=${encodeURIComponent(CONTROL_DOCS_URL)}`;

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
<style>
#token-notice { max-width: 1460px; margin: 1rem auto 0; padding: .75rem 1rem; box-sizing: border-box;
  font: 15px/1.5 sans-serif; color: #3b2f00; background: #fff4ce; border: 1px solid #e0c060; border-radius: 4px; }
</style>
</head>
<body>
<div id="token-notice" role="alert" hidden>
<strong>The control document needs the control token.</strong> This sandbox was started with
<code>--control-token</code>: <a id="token-link" href="${TOKEN_LINK}">give the token</a> and this page opens again on
the control document.
</div>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script>
const CONTROL_DOCUMENT = '/__sandbox/openapi.json';
const notice = document.getElementById('token-notice');
window.ui = SwaggerUIBundle({
  urls: [
    { url: '/openapi.json', name: 'Bank API (/api/v1)' },
    { url: CONTROL_DOCUMENT, name: ${JSON.stringify(CONTROL_DOCUMENT_NAME)} },
  ],
  dom_id: '#reference',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
  deepLinking: true,
  filter: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  // The control document's answer says whether the notice is needed (401 shows it); the other document hides it.
  responseInterceptor: (res) => {
    const path = new URL(res.url, location.href).pathname;
    if (path === CONTROL_DOCUMENT) notice.hidden = res.status !== 401;
    else if (path === '/openapi.json') notice.hidden = true;
    return res;
  },
});
</script>
</body>
</html>
`;
