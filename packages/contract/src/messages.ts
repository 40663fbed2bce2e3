/**
 * Every user-facing text of the crew-app spec, word for word (§2, §4, §5, §8), with our brand name where
 * the spec names the vendor. Tests compare the screens against these constants, so a text lives here once.
 */
import { BRAND_NAME_DEFAULT } from './constants.js';

export function createMessages(brand: string = BRAND_NAME_DEFAULT) {
  return {
    // §8 errors
    noResponse: 'No internet connection.\n Please check that your internet connection is working and try again.',
    badGateway: `${brand} servers are down, or being upgraded.`,
    serviceUnavailable: `The ${brand} servers are up, but overloaded with requests. Try again later.`,
    unexpected: `Oops! Something went wrong! Automatic report has been send to the ${brand} tech team to improve your experience.`,
    errorProcessingRequest: 'Error processing request.',
    protocolRequestError: 'Sorry, there was an error processing your request.',
    protocolDetailError: 'Sorry, there was an error retrieving the detailed response.',

    // §5 login
    fillUsername: 'Please fill username',
    fillPassword: 'Please fill password',
    loggingIn: 'Logging in...',

    // §5 change password (the double space is the spec's)
    fillCurrentPassword: 'Please fill in Current  Password',
    fillNewPassword: 'Please fill in New Password',
    fillNewPasswordAgain: 'Please fill in New Password Again',

    // §2 team / truck / start / settings / shift
    chooseTeam: 'Choose your team',
    mustSelectTeam: 'You must select a team!',
    chooseTruck: 'Choose your truck',
    logoutConfirm: 'Are you sure you want to logout?',
    chooseTime: 'Choose Time',
    tapToReceiveCase: 'Tap to Receive Case',
    askQuestion: 'Ask Question',
    tagline: 'Accelerate Emergency Care',
    startCase: 'START CASE',
    autoLogoutTitle: 'Auto Logout',
    autoLogoutHelp: 'Choose the time your shift ends to let the app automatically log you out.',
    autoLogoutReached: 'Auto-Logout time has been reached. Please login again to continue working.',

    // §2 message center
    messageCenterEmpty: "Looks like it's quiet. No broadcast messages at this time.",
    loadDispatchCase: 'Click Here to load the case',
    confirmStartCase: 'Are you sure you want to start this case?',

    // §4 / §8 case
    closeCaseConfirm: 'Would you like to close the case?',
    closeCaseWarning:
      'If you close the case you will lose the connection with the hospital but all information will remain on the servers.',
    noDataToHospital: 'No data will be sent to the hospital.',
    noHospitalSelected: 'No hospital selected! Please select a hospital before closing the case.',
    endCallToCloseCase: 'End current call to close case',
    sessionExpired: 'Your session expired. Please authenticate again or logout.',
    sessionExpiredCaseOpen:
      'You currently have a case open. If you logout you will no longer be able to add data to the case.',
    patientInfoRequired: (fields: string[]) =>
      `Please fill in the following fields in Patient Info to complete this case: ${fields.join(', ')}.`,
    ageHint: (max: number) => `From 1 to ${max}`,
    newVersion: 'New version available. Reloading page...',

    // Ours (the spec leaves them to us): the case screen's outbox and the logout warning
    warningTitle: 'Warning',
    online: 'Online',
    offline: 'Offline',
    changesWaiting: (count: number) => `${count} ${count === 1 ? 'change' : 'changes'} waiting to send`,
    signInToSend: 'Session expired. Sign in again to send the waiting changes.',
    changeNotSaved: 'This change could not be saved on this device. Please try again.',
    unsentChangesLogout: (count: number) =>
      `${count} ${count === 1 ? 'change has' : 'changes have'} not reached the hospital yet. If you log out now, ${count === 1 ? 'it' : 'they'} will be lost.`,
    chatComingLater: 'Chat with the hospital arrives with the chat feature.',
    caseFeedbackQueued: 'Your feedback is saved on this device and will be sent when the network is back.',
    caseFeedbackPrompt: (hospital: string) => `How was the hand-over at ${hospital}?`,
    complaintSetUnavailable: 'The complaint list could not be loaded. It loads as soon as the network is back.',

    // §2 / §5 / §8 media tab, monitor form, live consult, camera
    monitorIntegrationAvailable: 'Monitor Integration Available',
    selectMonitor: 'Select Monitor',
    enterPtId: 'Enter PT ID',
    getUserMediaMissing: 'getUserMedia is not implemented in this browser',
    selectHospitalForLiveConsult: 'Please select a hospital to start Live Consult.',
    liveConsultNotSupported: (hospital: string) => `${hospital} does not support Live Consults.`,
    // Ours: the live video room is not built yet; the camera could not be opened at all.
    liveConsultUnavailable: `Live video consults are not available in this version of ${brand}.`,
    cameraUnavailable: 'The camera could not be started. Check that the browser may use the camera.',
    microphoneUnavailable: 'The microphone could not be started. Check that the browser may use the microphone.',

    // §8 case feedback
    caseFeedbackSuccess: 'Your feedback has been submitted to a hospital representative, thank you.',
    caseFeedbackFailure: 'Feedback submission failed. Would you like to try again?',
  } as const;
}

export const messages = createMessages();
export type Messages = ReturnType<typeof createMessages>;

/** Server-side messages of our own design (the spec leaves these "not shown"). */
export const serverMessages = {
  invalidCredentials: 'The username or password is incorrect.',
  accountDisabled: 'This account is disabled. Contact your administrator.',
  oneTimePasswordExpired: 'This one-time password has expired. Ask your administrator for a new one.',
  notHospitalStaff: 'This account is not linked to an emergency department. Use the crew app to sign in.',
  tooManySignIns: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  tooManyRequests: 'Too many requests. Please slow down and try again shortly.',
  authRequired: 'Authentication required.',
  tokenInvalid: 'Your session is not valid. Please sign in again.',
  forbidden: 'You do not have access to this resource.',
  notFound: (what: string) => `${what} not found.`,
  currentPasswordWrong: 'The current password is incorrect.',
  passwordsDoNotMatch: 'The new passwords do not match.',
  passwordTooShort: (min: number) => `The new password must be at least ${min} characters long.`,
  passwordTooLong: (max: number) => `The new password must be at most ${max} characters long.`,
  passwordContainsUsername: 'The new password must not contain your username.',
  passwordTooCommon: 'The new password is too common. Choose a less predictable one.',
  passwordUnchanged: 'The new password must differ from the current password.',
  passwordOnlyWhitespace: 'The new password must not be only spaces.',
  passwordControlCharacter: 'The new password must not contain control characters.',
  passwordChanged: 'Your password has been changed.',
  feedbackReceived: 'Thank you for your feedback.',
  caseClosed: 'This case is closed; it can no longer be changed.',
  idempotencyKeyMissing: 'The Idempotency-Key header is required for this call.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 8 to 100 letters, digits or dashes (a UUID).',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request.',
} as const;
