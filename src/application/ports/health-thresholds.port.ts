import type { InjectionToken } from 'tsyringe';
import type { HealthThresholds } from '../../domain/health/health-status.js';

export const HEALTH_THRESHOLDS: InjectionToken<HealthThresholds> = Symbol('HealthThresholds');
