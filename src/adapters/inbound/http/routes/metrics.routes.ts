import { errorBody } from '../schemas/error.schema.js';
import { metricsFailureResponse, historicalMetricsResponse, performanceMetricsResponse, platformMetricsResponse, prometheusText, summaryMetricsResponse } from '../schemas/platform.responses.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GetPlatformMetrics } from '../../../../application/metrics/get-platform-metrics.use-case.js';
import type { GetUserMetricsHistory } from '../../../../application/metrics/get-user-metrics-history.use-case.js';
import type { GetUserPerformance } from '../../../../application/metrics/get-user-performance.use-case.js';
import type { GetUserSummary } from '../../../../application/metrics/get-user-summary.use-case.js';
import { historyBody, performanceBody, platformMetricsBody, summaryBody } from '../presenters/metrics-presenters.js';
import { assertMayScrape, type PrometheusMetrics } from '../plugins/prometheus-metrics.js';
import { historicalQuery, metricsParams } from '../schemas/metrics.schema.js';
import type { RouteEdge } from './route-context.js';

export interface MetricsRouteDeps {
  getPlatformMetrics: GetPlatformMetrics;
  getUserMetricsHistory: GetUserMetricsHistory;
  getUserPerformance: GetUserPerformance;
  getUserSummary: GetUserSummary;
  prometheus: PrometheusMetrics;
}

/**
 * Spec "Metrics": GET /api/metrics (public: platform-wide totals only), the backend's per-user
 * historical, performance and summary (J: the user's own, an admin any; another user's → 404),
 * and the operators' Prometheus text at GET /metrics (METRICS_TOKEN, else loopback only).
 */
export const metricsRoutes: FastifyPluginAsyncZod<RouteEdge & MetricsRouteDeps> = async (app, { getPlatformMetrics, getUserMetricsHistory, getUserPerformance, getUserSummary, prometheus }) => {
  const config = { auth: 'required' as const };

  app.get('/api/metrics', { schema: { response: { 200: platformMetricsResponse, 500: metricsFailureResponse } }, config: { auth: 'none' } }, async (req, reply) => {
    try {
      const m = await getPlatformMetrics.execute();
      return { metrics: platformMetricsBody(m), timestamp: new Date().toISOString(), status: 'ok' };
    } catch (err) {
      // the spec's failure body: `metrics` stays an (empty) object for clients that read it
      req.log.error({ err }, 'platform metrics failed');
      return reply.status(500).send({ error: 'Failed to collect metrics', metrics: {} });
    }
  });

  app.get('/api/metrics/:userId/historical', { schema: { params: metricsParams, querystring: historicalQuery, response: { 200: historicalMetricsResponse } }, config }, async (req) =>
    historyBody(await getUserMetricsHistory.execute(req.actor!, { userId: req.params.userId, range: req.query.range })),
  );

  app.get('/api/metrics/:userId/performance', { schema: { params: metricsParams, response: { 200: performanceMetricsResponse } }, config }, async (req) =>
    performanceBody(await getUserPerformance.execute(req.actor!, { userId: req.params.userId })),
  );

  app.get('/api/metrics/:userId/summary', { schema: { params: metricsParams, response: { 200: summaryMetricsResponse } }, config }, async (req) =>
    summaryBody(await getUserSummary.execute(req.actor!, { userId: req.params.userId })),
  );

  const prometheusMedia = { 200: { 'text/plain; version=0.0.4': 'response' as const } };
  app.get('/metrics', { schema: { response: { 200: prometheusText, 401: errorBody, 403: errorBody } }, config: { auth: 'none', openapi: { media: prometheusMedia } } }, async (req, reply) => {
    assertMayScrape(prometheus, req.headers.authorization, req.socket.remoteAddress ?? '');
    const { contentType, body } = await prometheus.text();
    return reply.type(contentType).send(body);
  });
};
