/** The password rule of the built-in auth provider, which the sign-up and reset forms show. */
export const MIN_PASSWORD_LENGTH = 8
export const weakPassword = (password: string) => password.length < MIN_PASSWORD_LENGTH
