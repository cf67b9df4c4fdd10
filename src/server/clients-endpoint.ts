// No upstream counterpart: `GET /debug/listwatch/v1/clients`, what each client did (issue 26). A
// live recorder that keeps no lines folds the server's requests, engine events and fault hits
// into a run model from the start; each GET folds that model into the clients report
// (src/run/clients-report.ts, the same function the Clients view and `listwatch report` use).
import { RunModelBuilder } from '../run/build-run-model';
import { clientsReport, type ClientsReport } from '../run/clients-report';
import { LiveRecorder, type RecordedServer } from './live-recorder';

/** The report's path (the admin API's prefix: no fault touches it). */
export const clientsPath = '/debug/listwatch/v1/clients';

/** The 404's message when the server records no clients report. */
export const clientsReportOff =
  'this server records no clients report: start it with listwatch serve --clients-report';

/** A server's requests since it started, folded for the clients report. */
export class ClientsRecording {
  private readonly recorder: LiveRecorder;
  private readonly builder: RunModelBuilder;

  constructor(server: RecordedServer) {
    this.recorder = new LiveRecorder(server, { scrape: false, keepLines: false });
    this.builder = new RunModelBuilder(this.recorder.header);
    this.recorder.subscribe((r) => this.builder.add(r));
  }

  /** The report now (its `at`: ms since the server started). */
  report(): ClientsReport {
    return { ...clientsReport(this.builder.finish()), at: this.recorder.now() };
  }

  dispose(): void {
    this.recorder.dispose();
  }
}
