import { LocationProvider, Route, Router } from 'preact-iso';
import { Layout } from './components/layout.js';
import { AgentDetailPage } from './pages/agent-detail.js';
import { AgentsPage } from './pages/agents.js';
import { BillingPortalPage } from './pages/billing-portal.js';
import { ForgotPasswordPage } from './pages/forgot-password.js';
import { HomePage } from './pages/home.js';
import { NotFoundPage } from './pages/not-found.js';
import { OnboardingPage } from './pages/onboarding.js';
import { PayPerCallPage } from './pages/pay-per-call.js';
import { PricingPage } from './pages/pricing.js';
import { ResetPasswordPage } from './pages/reset-password.js';
import { SettingsPage } from './pages/settings.js';
import { SignInPage } from './pages/signin.js';
import { SignUpPage } from './pages/signup.js';
import { VerifyEmailPage } from './pages/verify-email.js';
import { SessionProvider } from './session.js';

/** Every page of the console, by path. The server answers index.html for all of them. */
export function App() {
  return (
    <LocationProvider>
      <SessionProvider>
        <Layout>
          <Router>
            <Route path="/" component={HomePage} />
            <Route path="/signup" component={SignUpPage} />
            <Route path="/signin" component={SignInPage} />
            <Route path="/verify-email" component={VerifyEmailPage} />
            <Route path="/forgot-password" component={ForgotPasswordPage} />
            <Route path="/reset-password" component={ResetPasswordPage} />
            <Route path="/settings" component={SettingsPage} />
            <Route path="/pricing" component={PricingPage} />
            <Route path="/onboarding" component={OnboardingPage} />
            <Route path="/pay-per-call" component={PayPerCallPage} />
            <Route path="/billing/portal" component={BillingPortalPage} />
            <Route path="/agents" component={AgentsPage} />
            <Route path="/agents/:id" component={AgentDetailPage} />
            <Route default component={NotFoundPage} />
          </Router>
        </Layout>
      </SessionProvider>
    </LocationProvider>
  );
}
