import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';
import { CustomerIdParam, CustomerIdRequest } from '../../../common/http/customer-request.js';
import { PageQuery } from '../../../common/http/pagination.js';
import { asOneLine } from '../../../common/identifiers/characters.js';
import { IgnoreUnknownFields } from '../../../common/validation/validation.pipe.js';
import { EnumField, IdentifierField, QueryIdField, TextField } from '../../../common/validation/fields.js';
import { MESSAGE_STATUSES, MessageStatus } from '../domain/message.js';
import { OPERATOR_TEXT_MAX } from '../domain/sms-encoding.js';
import { LANGUAGES, type Language, MESSAGE_KINDS } from '../domain/templates.js';
import type { MessageView, PreferencesView } from '../application/messages.service.js';

export class MessageListQuery extends PageQuery {
  @QueryIdField({ optional: true, description: 'Only this customer’s messages (404 when the customer does not exist).', example: 42 })
  customerid?: number;

  @EnumField(MESSAGE_STATUSES, { optional: true, example: 'FAILED', description: 'Only messages in this state (FAILED: the ones to look at).' })
  status?: MessageStatus;
}

export class SendMessageRequest extends CustomerIdRequest {
  @TextField({
    max: OPERATOR_TEXT_MAX,
    example: 'Hello, our agent will visit you on Friday to check the solar panel.',
    description: `At most ${OPERATOR_TEXT_MAX} characters (three SMS of plain GSM-7 text; each of € [ ] { } ~ ^ | \\ counts twice, so a text holding them may take more parts; any character outside GSM-7 makes it UCS-2, 67 characters a part). The segments it takes are stored with it. Sent at once, whatever the hour or the customer’s opt-out (which concerns reminders).`,
  })
  text: string;
}

export class PreferencesRequest extends CustomerIdRequest {
  @EnumField(LANGUAGES, { example: 'sw', description: 'Language of the customer’s messages.' })
  language: Language;

  @ApiProperty({ type: Boolean, example: false, description: 'true: no payment reminders (receipts and lock notices still go).' })
  @IsBoolean()
  smsoptout: boolean;
}

export class PreferencesQuery extends CustomerIdParam {}

export class PreferencesResponse implements PreferencesView {
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ enum: LANGUAGES, example: 'sw' }) language: Language;
  @ApiProperty({ example: false }) smsoptout: boolean;
}

export class SmsMessageResponse implements MessageView {
  @ApiProperty({ type: 'integer', example: 7 }) messageid: number;
  @ApiProperty({ type: 'integer', example: 42 }) customerid: number;
  @ApiProperty({ enum: MESSAGE_KINDS, example: 'PAYMENT_RECEIVED' }) kind: MessageView['kind'];
  @ApiProperty({ enum: MESSAGE_STATUSES, example: 'DELIVERED' }) status: MessageStatus;
  @ApiProperty({ enum: LANGUAGES, example: 'en' }) language: Language;
  @ApiProperty({ example: 'We received your payment of UGX 45,000, thank you. Balance: UGX 495,000. Your device is paid up to 9 April 2026.' }) text: string;
  @ApiProperty({ enum: ['GSM-7', 'UCS-2'], example: 'GSM-7' }) encoding: string;
  @ApiProperty({ type: 'integer', example: 1, description: 'SMS parts the text takes (what the gateway bills).' }) segments: number;
  @ApiProperty({ example: '+256772555001', nullable: true, type: String, description: 'The number it went to (set when sent).' }) telephone: string | null;
  @ApiProperty({ type: 'integer', example: 1 }) attempts: number;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'Why the last attempt did not go (it is tried again).' }) lasterror: string | null;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'FAILED or CANCELLED: why (the gateway’s reason when it gave one).' }) failurereason: string | null;
  @ApiProperty({ example: 'ATXid_0f1e2d3c', nullable: true, type: String }) gatewaymessageid: string | null;
  @ApiProperty({ example: 'UGX 30.0000', nullable: true, type: String }) cost: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T09:12:00.000Z' }) createdat: string;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T09:12:01.000Z', nullable: true, type: String }) sentat: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T09:12:05.000Z', nullable: true, type: String }) deliveredat: string | null;
}

/** Africa's Talking's delivery report (form fields or JSON); the fields this service does not use are ignored. */
@IgnoreUnknownFields()
export class DeliveryReportRequest {
  @IdentifierField({ max: 100, example: 'ATXid_0f1e2d3c', description: 'The gateway’s message id, as it answered the send.' })
  id: string;

  @IdentifierField({ max: 40, example: 'Success', description: 'Success (delivered), Failed or Rejected (final failures); Sent, Submitted and Buffered change nothing.' })
  status: string;

  // a webhook: a report refused for its reason's length or characters would be posted again and again, the message left SENT
  @IdentifierField({ max: 1000, optional: true, allowEmpty: true, example: 'UserInBlacklist', description: 'With Failed or Rejected: why (kept as one line, line breaks and control characters made spaces, to its first 255 characters).' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? asOneLine(value) : value))
  failureReason?: string;
}

export class DeliveryReportQuery {
  @IdentifierField({ max: 255, example: 'the-SMS_CALLBACK_KEY-value', description: 'SMS_CALLBACK_KEY (compared in constant time; wrong or missing: 401).' })
  key: string;
}

export class DeliveryReportResponse {
  @ApiProperty({ example: 'Message delivered.' }) message: string;
}
