import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { Language, MessageKind, MessageTemplates, RenderedMessage } from '../domain/templates.js';
import type { MessageRow } from '../infrastructure/messages.repository.js';

/**
 * The templates with this installation's currency and payment instructions, and the wording of a
 * receipt written as figures (MessagesRepository's RECEIPT_ROW): in the customer's language when the
 * worker first sends it, and the same way when a list shows it before that.
 */
@Injectable()
export class MessageWording {
  readonly templates: MessageTemplates;

  constructor(private readonly config: AppConfig) {
    this.templates = new MessageTemplates({ currency: config.currency, instructions: config.sms.paymentInstructions });
  }

  /** The receipt's text in the customer's language (or SMS_DEFAULT_LANGUAGE); null for a message worded already. */
  wordingOf(row: MessageRow): RenderedMessage | null {
    if (row.text !== null) return null;
    const language: Language = row.preferred_language ?? this.config.sms.defaultLanguage;
    return this.templates.render(MessageKind.PAYMENT_RECEIVED, language, { amount: row.amount!, balance: row.balance!, date: row.paid_up_to! });
  }

  /** The row as it reads once worded. */
  worded(row: MessageRow): MessageRow {
    const m = this.wordingOf(row);
    return m ? { ...row, language: m.language, text: m.text, encoding: m.encoding, segments: m.segments } : row;
  }
}
