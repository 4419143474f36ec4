/** What every notification provider accepts (transaction alerts, quarantine notices, summaries). */
export interface NotifyMessage {
  kind: "transaction" | "quarantine" | "summary";
  title: string;
  text: string;
}

export interface Notifier {
  readonly name: string;
  /** May throw; callers go through safeSend. */
  send(msg: NotifyMessage): Promise<void>;
}
