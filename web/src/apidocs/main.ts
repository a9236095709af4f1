// The API reference page (/api/docs/): Swagger UI renders the server's own
// OpenAPI document. It is bundled by Vite with the rest of the client, so
// the page loads nothing from outside the server (docs/decisions.md).
import SwaggerUI from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import './apidocs.css';

SwaggerUI({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // No badge fetched from the public validator: the page stays offline.
  validatorUrl: null,
  // "Try it out" sends the signed-in browser's session cookie, same origin.
  withCredentials: true,
  defaultModelsExpandDepth: 0,
});
