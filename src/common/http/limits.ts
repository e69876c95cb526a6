/** The longest path parameter the router takes (Fastify's maxParamLength); longer ones are a 400. */
export const MAX_PARAM_LENGTH = 200;

export const tooLongParameterMessage = () => `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`;
